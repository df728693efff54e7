// Starts downloading and compiling the engine's WebAssembly as soon as the page is parsed, in
// parallel with the page's own (much smaller) wasm, and counts the bytes as they arrive: in the
// first engine worker, started here at once (engine-boot.js), or on this page when that worker
// cannot. The page picks the compiled module up from `globalThis.playgroundEngine` (see
// src/ui/engine_loader.rs), and hands it to every engine worker it starts. Once the engine is
// compiled, it registers the service worker that keeps the build for the next visit (src/ui/sw.js).
// Two engines: burn as the playground builds it, and burn with its `fusion` feature (the
// default most burn users run), fetched only when the page was opened with fusion on.
import { fetchEngine, keep } from './engine-boot.js';

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

/**
 * A download of the engine: `module` resolves with it compiled. With `worker` (the first engine
 * worker, see startWorker), that worker fetches and compiles it off this thread and reports here
 * (engine-boot.js); without, or should that worker's script fail to load, this page does.
 */
function load(worker = null) {
  // `received` counts the engine's bytes as the body yields them (decompressed); `fraction` is
  // how far the download is; `total` is the size that crosses the network (the compressed size
  // when the host compresses), and `sent` the part of it received so far.
  // `cached`: a service worker answers, from this browser's cache (nothing crosses the network).
  const state = { received: 0, fraction: null, total: null, sent: null, cached: !!navigator.serviceWorker?.controller };
  let raw = null;
  // A point in time reported from either thread (ms since the epoch), as a mark of this page's.
  const markAt = (name, time) => performance.mark(name, { startTime: Math.max(0, time - performance.timeOrigin) });
  const report = (progress) => {
    if ('encoding' in progress) {
      const { encoding, length } = progress;
      raw = SIZES?.raw ?? (encoding ? null : length);
      // With a content encoding, Content-Length counts the compressed bytes (what crosses the
      // network) while the body yields decompressed ones: the fraction of the raw size read so
      // far is the fraction of the transfer done.
      state.total = encoding ? (length ?? SIZES?.[encoding === 'br' ? 'br' : 'gzip'] ?? null) : raw;
    }
    if ('received' in progress) {
      state.received = progress.received;
      if (raw) {
        state.fraction = Math.min(1, state.received / raw);
        if (state.total) state.sent = state.fraction * state.total;
      }
    }
    // Read by the bench: where a visit's first result goes (src/ui/browser.rs marks the rest).
    if ('fetched' in progress) markAt('engine-fetched', progress.fetched);
  };
  // Kept for the service worker unless it answered (the copy is its own).
  const cacheName = state.cached ? null : CACHE_NAME;
  const here = () =>
    fetchEngine(ENGINE_URL, cacheName, report).then(({ module, kept }) => {
      state.kept = kept;
      performance.mark('engine-compiled');
      return module;
    });
  state.module = !worker
    ? here()
    : new Promise((resolve, reject) => {
        const channel = new MessageChannel();
        let settled = false;
        let keptThere;
        state.kept = new Promise((resolve) => (keptThere = resolve));
        channel.port1.onmessage = ({ data }) => {
          if (data.kept) {
            keptThere();
          } else if (data.compiled) {
            settled = true;
            markAt('engine-compiled', data.at);
            resolve(data.compiled);
          } else if (data.failed) {
            settled = true;
            keptThere();
            reject(new Error(data.failed));
          } else {
            report(data);
          }
        };
        // Its script did not load (or it died before the engine was in): loaded here instead.
        worker.addEventListener(
          'error',
          () => {
            keptThere();
            if (settled) return;
            settled = true;
            resolve(here());
          },
          { once: true },
        );
        worker.postMessage({ loadEngine: { url: ENGINE_URL, cacheName } }, [channel.port2]);
      });
  return state;
}

/**
 * The first engine worker, started at once: its scripts load, it asks WebGPU for an adapter
 * (engine-bootstrap.js), and it loads the engine itself (engine-boot.js). The page takes it for
 * its first worker; one whose script failed to load is dropped (the page then starts its own, and
 * sees that error itself).
 */
function startWorker() {
  try {
    const worker = new Worker(FUSION ? 'engine-bootstrap-fusion.js' : 'engine-bootstrap.js', { type: 'module' });
    let failed = false;
    worker.addEventListener('error', () => { failed = true; }, { once: true });
    performance.mark('engine-worker-started');
    return {
      worker,
      take() {
        if (!failed) return worker;
        worker.terminate();
        return null;
      },
    };
  } catch {
    return null;
  }
}

let started = startWorker();

globalThis.playgroundEngine = {
  fusion: FUSION,
  current: load(started?.worker),
  /** Starts a new download (after a failed one). */
  retry() {
    this.current = load();
    return this.current;
  },
  /** The worker started with the page, once (null after, or when it failed to start). */
  takeWorker() {
    const worker = started?.take() ?? null;
    started = null;
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
    if (response.ok) await keep(CACHE_NAME, name, response);
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
