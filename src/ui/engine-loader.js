// Starts downloading and compiling the engine's WebAssembly as soon as the page is parsed, in
// parallel with the page's own (much smaller) wasm, and counts the bytes as they arrive. The page
// picks the compiled module up from `globalThis.playgroundEngine` (see src/ui/engine_loader.rs),
// and hands it to every engine worker it starts. Once the engine is compiled, it registers the
// service worker that keeps the build for the next visit (src/ui/sw.js).
// Two engines: burn as the playground builds it, and burn with its `fusion` feature (the
// default most burn users run), fetched only when the page was opened with fusion on.
const FUSION = new URLSearchParams(location.search).get('fusion') === 'on';
const ENGINE_URL = FUSION ? 'engine-worker-fusion_bg.wasm' : 'engine-worker_bg.wasm';
// Each engine wasm's sizes in bytes — raw, gzip -9, brotli 11 — written by
// scripts/write-build-manifest.mjs into a release build (null in a development build).
const ENGINE_SIZES = null;
const SIZES = ENGINE_SIZES?.[ENGINE_URL] ?? null;
// The service worker's cache for this build (written with the sizes; null in a development
// build). The page puts what it downloaded there itself, so that installing the service worker
// does not download it again (src/ui/sw.js skips what the cache holds).
const CACHE_NAME = null;

/** Keeps `response` (of this build's `name`) in the service worker's cache. */
function keep(name, response) {
  if (!CACHE_NAME || !('caches' in globalThis)) return Promise.resolve();
  const type = name.endsWith('.wasm') ? 'application/wasm' : (response.headers.get('content-type') ?? '');
  // The body as decoded, with its type only: the cache serves it to a later visit as is.
  const kept = new Response(response.body, { headers: { 'content-type': type } });
  return caches.open(CACHE_NAME).then((cache) => cache.put(new URL(name, location.href), kept));
}

function load() {
  // `received` counts the engine's bytes as the body yields them (decompressed); `fraction` is
  // how far the download is; `total` is the size that crosses the network (the compressed size
  // when the host compresses), and `sent` the part of it received so far.
  // `cached`: a service worker answers, from this browser's cache (nothing crosses the network).
  const state = { received: 0, fraction: null, total: null, sent: null, cached: !!navigator.serviceWorker?.controller };
  state.module = (async () => {
    const response = await fetch(ENGINE_URL);
    if (!response.ok) throw new Error(`${ENGINE_URL}: HTTP ${response.status}`);
    const encoding = response.headers.get('content-encoding');
    const length = Number(response.headers.get('content-length')) || null;
    const raw = SIZES?.raw ?? (encoding ? null : length);
    // With a content encoding, Content-Length counts the compressed bytes (what crosses the
    // network) while the body yields decompressed ones: the fraction of the raw size read so far
    // is the fraction of the transfer done.
    state.total = encoding ? (length ?? SIZES?.[encoding === 'br' ? 'br' : 'gzip'] ?? null) : raw;
    // The response itself goes to compileStreaming (so the browser may cache its compiled code);
    // a clone is read to count, and, unless a service worker answered, one is kept.
    state.kept = state.cached ? Promise.resolve() : keep(ENGINE_URL, response.clone()).catch(() => {});
    const reader = response.clone().body.getReader();
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        state.received += value.byteLength;
        if (raw) {
          state.fraction = Math.min(1, state.received / raw);
          if (state.total) state.sent = state.fraction * state.total;
        }
      }
    })().catch(() => {});
    const module = await WebAssembly.compileStreaming(response);
    // Read by the bench: where a visit's first result goes (src/ui/browser.rs marks the rest).
    performance.mark('engine-compiled');
    return module;
  })();
  return state;
}

/**
 * The first engine worker, started at once: its scripts load and it asks WebGPU for an adapter
 * (engine-bootstrap.js) while the engine downloads and compiles, instead of after. The page takes
 * it for its first worker and hands it the module; one whose script failed to load is dropped
 * (the page then starts its own, and sees that error itself).
 */
function startWorker() {
  try {
    const worker = new Worker(FUSION ? 'engine-bootstrap-fusion.js' : 'engine-bootstrap.js', { type: 'module' });
    let failed = false;
    worker.addEventListener('error', () => { failed = true; }, { once: true });
    performance.mark('engine-worker-started');
    return () => {
      if (!failed) return worker;
      worker.terminate();
      return null;
    };
  } catch {
    return () => null;
  }
}

let takeStarted = startWorker();

globalThis.playgroundEngine = {
  fusion: FUSION,
  current: load(),
  /** Starts a new download (after a failed one). */
  retry() {
    this.current = load();
    return this.current;
  },
  /** The worker started with the page, once (null after, or when it failed to start). */
  takeWorker() {
    const worker = takeStarted();
    takeStarted = () => null;
    return worker;
  },
};

/**
 * The page's own wasm, script and style as this visit fetched them: trunk names them by their
 * content's hash (`playground-<hash>_bg.wasm`), so the browser's HTTP cache can only hold this
 * build's bytes under those names; `force-cache` reads them from there without the network.
 */
async function keepPageFiles() {
  const own = /\/(playground-[0-9a-f]+(_bg\.wasm|\.js)|main-[0-9a-f]+\.css)$/;
  const names = performance
    .getEntriesByType('resource')
    .map((entry) => new URL(entry.name))
    .filter((url) => url.origin === location.origin && own.test(url.pathname))
    .map((url) => url.pathname.split('/').pop());
  for (const name of new Set(names)) {
    const response = await fetch(name, { cache: 'force-cache' });
    if (response.ok) await keep(name, response);
  }
}

/**
 * Resolves once the page's own wasm runs (its `page-started` mark), when its files are fully
 * fetched and so listed among the resources; or after `ms`, whatever happened. The engine can be
 * compiled before the page's wasm has arrived: kept then, the page's files would be missing from
 * the list, and the service worker would download them again.
 */
function pageStarted(ms) {
  return new Promise((resolve) => {
    if (performance.getEntriesByName('page-started', 'mark').length) return resolve();
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('page-started').length) {
        observer.disconnect();
        resolve();
      }
    });
    observer.observe({ type: 'mark', buffered: true });
    setTimeout(() => {
      observer.disconnect();
      resolve();
    }, ms);
  });
}

// A release build keeps itself for the next visit, offline included; registered once the engine
// is in, so the service worker's own downloads never compete with the first one, and after the
// page kept what it fetched, so that installing downloads only what is missing.
if (ENGINE_SIZES && 'serviceWorker' in navigator) {
  globalThis.playgroundEngine.current.module
    .then(() => globalThis.playgroundEngine.current.kept)
    .then(() =>
      navigator.serviceWorker.controller ? null : pageStarted(10_000).then(keepPageFiles).catch(() => {}),
    )
    .then(() => navigator.serviceWorker.register('./sw.js'))
    .catch(() => {});
}
