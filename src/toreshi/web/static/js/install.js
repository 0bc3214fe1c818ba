// Every page registers the service worker (templates/sw.js, served at /sw.js): it keeps the static files and the
// offline page, so a phone that loses the club's network shows why and comes back by itself (issue 30).
if ("serviceWorker" in navigator && window.isSecureContext) {
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {
    // A browser that refuses workers (private mode, a policy) still has every page: nothing to tell the reader.
  });
}
