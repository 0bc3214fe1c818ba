// The service worker of toreshi (issue 30), served at /sw.js after a first line that sets SETTINGS: the cache of
// this release, the app shell it keeps (every static file, the offline page in each language) and the languages.
//
// What it keeps: only the shell. Pages are never kept (a page may carry a player's link or a form token), nor API
// answers, sockets, anything asked for with a link (token=, code=, /j/), nor any response marked no-store.
// Static files: from the cache first (the cache is new with every release: its name is a digest of the files).
// Pages: from the network; when the network is gone, the offline page in the reader's language.

const SECRET = /[?&](?:token|code)=|^\/j\//;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(SETTINGS.cache)
      .then((cache) => cache.addAll(SETTINGS.shell.map((url) => new Request(url, { cache: "reload" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name !== SETTINGS.cache) await caches.delete(name);
      }
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

function carriesSecret(url) {
  return SECRET.test(url.pathname) || SECRET.test(url.search);
}

function keepable(response) {
  const control = response.headers.get("cache-control") || "";
  return response.ok && response.type === "basic" && !/no-store/i.test(control);
}

async function staticFile(request) {
  const cache = await caches.open(SETTINGS.cache);
  const kept = await cache.match(request);
  if (kept) return kept;
  const response = await fetch(request);
  if (keepable(response)) await cache.put(request, response.clone());
  return response;
}

// The reader's language, in the server's order: the address's ?lang=, the language cookie, the browser's.
async function language(url) {
  const known = (code) => SETTINGS.languages.includes(code);
  const asked = url.searchParams.get("lang");
  if (known(asked)) return asked;
  try {
    const cookie = self.cookieStore ? await self.cookieStore.get("toreshi_lang") : null;
    if (cookie && known(cookie.value)) return cookie.value;
  } catch {
    // No cookie store in this browser: its languages decide.
  }
  for (const tag of self.navigator.languages || []) {
    const code = tag.toLowerCase().split("-")[0];
    if (known(code)) return code;
  }
  return SETTINGS.languages[0];
}

async function page(event, url) {
  try {
    const preloaded = await event.preloadResponse;
    if (preloaded) return preloaded;
    return await fetch(event.request);
  } catch {
    const offline = await caches.match(`/offline/${await language(url)}`, { cacheName: SETTINGS.cache });
    return offline || Response.error();
  }
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(page(event, url));
    return;
  }
  if (url.pathname.startsWith("/static/") && !carriesSecret(url)) event.respondWith(staticFile(request));
});
