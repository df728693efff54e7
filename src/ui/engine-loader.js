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
    // a clone is read to count.
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
    return WebAssembly.compileStreaming(response);
  })();
  return state;
}

globalThis.playgroundEngine = {
  fusion: FUSION,
  current: load(),
  /** Starts a new download (after a failed one). */
  retry() {
    this.current = load();
    return this.current;
  },
};

// A release build keeps itself for the next visit, offline included; registered once the engine
// is in, so the service worker's own downloads never compete with the first one.
if (ENGINE_SIZES && 'serviceWorker' in navigator) {
  globalThis.playgroundEngine.current.module
    .then(() => navigator.serviceWorker.register('./sw.js'))
    .catch(() => {});
}
