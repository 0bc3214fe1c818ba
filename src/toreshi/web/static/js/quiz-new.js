// The new-game form (quiz/new.html): the pack's upload shows its progress, then what the server checks; the
// assistant's field is required except for a shootout. Without JavaScript the form posts as any form does (the
// page says a large pack takes a while) and the server says what is missing, keeping an uploaded pack.

const MiB = 1024 * 1024;
const mebibytes = new Intl.NumberFormat(document.documentElement.lang || undefined, {
  minimumFractionDigits: 1,
  maximumFractionDigits: 1,
});

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

function followKind(form) {
  const kind = form.querySelector("input[name='kind']:checked")?.value;
  form.querySelectorAll("[data-required-unless-kind]").forEach((field) => {
    const required = kind !== field.dataset.requiredUnlessKind;
    field.required = required;
    if (required) field.setAttribute("aria-required", "true");
    else field.removeAttribute("aria-required");
  });
}

function setUp() {
  const form = document.getElementById("quiz-new-form");
  if (form) followKind(form);
}

document.addEventListener("change", (event) => {
  const form = event.target.closest?.("#quiz-new-form");
  if (form && event.target.name === "kind") followKind(form);
});

document.addEventListener("submit", (event) => {
  const form = event.target;
  if (form.id !== "quiz-new-form" || !window.XMLHttpRequest || !window.FormData || !window.DOMParser) return;
  const file = form.elements.pack?.files?.[0];
  if (!file) return; // nothing large to send (the pack was kept): the ordinary post is as quick
  event.preventDefault();
  const box = form.querySelector(".upload-progress");
  const bar = box.querySelector("progress");
  const status = box.querySelector("[role='status']");
  const button = form.querySelector("button[type='submit']");
  box.hidden = false;
  button.disabled = true;
  const request = new XMLHttpRequest();
  let lastSaid = -1;
  request.upload.addEventListener("progress", (progress) => {
    if (!progress.lengthComputable) return;
    const percent = Math.floor((100 * progress.loaded) / progress.total);
    bar.value = percent;
    if (percent >= lastSaid + 10 || percent === 100) { // a screen reader hears every tenth, not every packet
      lastSaid = percent;
      const said = fill(form.dataset.uploading, {
        done: mebibytes.format(progress.loaded / MiB),
        total: mebibytes.format(progress.total / MiB),
      });
      status.textContent = `${said} (${percent}\u00a0%)`;
    }
  });
  request.upload.addEventListener("load", () => {
    bar.removeAttribute("value"); // indeterminate: the server is reading the pack
    status.textContent = form.dataset.checking;
  });
  request.addEventListener("load", () => {
    const landed = new URL(request.responseURL || form.action, location.href);
    if (landed.pathname !== new URL(form.action, location.href).pathname) {
      location.assign(landed.href); // the game is made: its links page (the redirect the post followed)
      return;
    }
    // The form again with what is wrong (and the pack kept), or the questions to pick: show it in place.
    const page = new DOMParser().parseFromString(request.responseText, "text/html");
    const main = page.querySelector("main");
    if (!main) {
      failed();
      return;
    }
    document.title = page.title;
    document.querySelector("main").replaceWith(document.adoptNode(main));
    setUp();
    const first = document.querySelector("main [role='alert']") || document.querySelector("main h1");
    if (first) {
      first.tabIndex = -1;
      first.focus();
    }
  });
  const failed = () => {
    bar.value = 0;
    status.textContent = form.dataset.failed;
    button.disabled = false;
  };
  request.addEventListener("error", failed);
  request.addEventListener("abort", failed);
  request.open("POST", form.action);
  request.send(new FormData(form));
});

setUp();
