// The playground's service worker: after a first visit, the page and its engine load from this
// browser's cache, with or without the network.
//
// One build per cache: `BUILD` (written by scripts/write-build-manifest.mjs when dist/ is built)
// lists every file of the build and its id. Installing caches all of them; activating deletes the
// caches of other builds; every request for a file of the build is answered from this build's
// cache, so a page never mixes files of two builds. A new build ships a new sw.js: the browser
// installs it beside the old one, and it takes over when no page of the old build is open.
//
// What the first visit's page downloaded itself — the engine, its own wasm, script and style — it
// has put in this build's cache before registering this worker, and installing skips it.
//
// Where the host does not compress (a plain static host), the precompressed `.gz` copy dist/
// ships is fetched and decompressed here: the bytes that cross the network are the gzip ones.
// Where it does, installing revalidates what the first visit already downloaded (a 304, no body).
// The fusion engine and the editor (its UI's wasm and its expander's) are kept once a visit has
// used them, not at install: a visitor who never turns fusion on or opens the editor never
// downloads them.
const BUILD = null;
const CACHE = `playground-${BUILD?.id}`;
const LAZY = /^(engine-(worker|bootstrap)-fusion|expander-|editor-)/;
const TYPES = {
  wasm: 'application/wasm',
  js: 'text/javascript',
  css: 'text/css',
  html: 'text/html; charset=utf-8',
  svg: 'image/svg+xml',
  json: 'application/json',
};

/** A file of the build from the network: its gzip copy, decompressed, when the host sends it uncompressed. */
async function download(name) {
  const url = new URL(name, self.registration.scope);
  const head = await fetch(url, { method: 'HEAD', cache: 'no-cache' });
  if (!head.headers.get('content-encoding') && BUILD.files[name].gzip < BUILD.files[name].raw) {
    const packed = await fetch(`${url}.gz`, { cache: 'no-cache' });
    if (packed.ok && packed.body) {
      const type = TYPES[name.split('.').pop()] ?? 'application/octet-stream';
      // A host that labels the .gz file with its encoding has it decoded by the browser already.
      const body = packed.headers.get('content-encoding')
        ? packed.body
        : packed.body.pipeThrough(new DecompressionStream('gzip'));
      return new Response(body, { headers: { 'content-type': type } });
    }
  }
  return fetch(url, { cache: 'no-cache' });
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      for (const name of Object.keys(BUILD.files).filter((name) => !LAZY.test(name))) {
        // Kept already by the page that registered this worker (engine-loader.js): the bytes it
        // downloaded are not downloaded again.
        if (await cache.match(new URL(name, self.registration.scope))) continue;
        const response = await download(name);
        if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
        await cache.put(new URL(name, self.registration.scope), response);
      }
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const key of await caches.keys()) {
        if (key.startsWith('playground-') && key !== CACHE) await caches.delete(key);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const scope = new URL(self.registration.scope);
  if (url.origin !== scope.origin || !url.pathname.startsWith(scope.pathname)) return;
  let name = url.pathname.slice(scope.pathname.length);
  // The page itself, whatever its query (the scenario) or however the folder is named.
  if (event.request.mode === 'navigate' && (name === '' || name === 'index.html')) name = 'index.html';
  if (!(name in BUILD.files)) return;
  event.respondWith(
    (async () => {
      const key = new URL(name, scope);
      const kept = await caches.match(key, { cacheName: CACHE });
      if (kept) return kept;
      if (!LAZY.test(name)) return fetch(event.request);
      // A file fetched only when used (the fusion engine, the editor), first used now: kept
      // for the next visit.
      const response = await download(name);
      if (response.ok) await (await caches.open(CACHE)).put(key, response.clone());
      return response;
    })(),
  );
});
