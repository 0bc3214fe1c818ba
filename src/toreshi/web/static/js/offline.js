// The offline page (issue 30): the service worker shows it at the address of the page it could not reach, so
// reloading is going back to that page. It reloads as soon as the server answers again: when the browser says it is
// online, and every few seconds (a phone can be on a Wi-Fi that does not reach the club's server).

const PROBE_EVERY_MS = 3000;
const standsForAnotherPage = !location.pathname.startsWith("/offline/");

async function serverAnswers() {
  try {
    const response = await fetch("/api/health", { cache: "no-store" });
    return response.ok;
  } catch {
    return false;
  }
}

async function reloadWhenBack() {
  // While the phone itself says it is offline there is nothing to ask (and a failed request is a console error).
  if (navigator.onLine && (await serverAnswers())) location.reload();
}

if (standsForAnotherPage) {
  window.addEventListener("online", reloadWhenBack);
  setInterval(reloadWhenBack, PROBE_EVERY_MS);
}
document.getElementById("retry")?.addEventListener("click", () => {
  if (standsForAnotherPage) location.reload();
  else location.assign("/");
});
