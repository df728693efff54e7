// Starts downloading and compiling the engine's WebAssembly as soon as the page is parsed, in
// parallel with the page's own (much smaller) wasm, and counts the bytes as they arrive. The page
// picks the compiled module up from `globalThis.playgroundEngine` (see src/ui/engine_loader.rs),
// and hands it to every engine worker it starts.
const ENGINE_URL = 'engine-worker_bg.wasm';

function load() {
  const state = { received: 0, total: null };
  state.module = (async () => {
    const response = await fetch(ENGINE_URL);
    if (!response.ok) throw new Error(`${ENGINE_URL}: HTTP ${response.status}`);
    // With a content encoding (a precompressed .br or .gz), Content-Length counts compressed
    // bytes while the body yields decompressed ones: then only the bytes received are known.
    const length = Number(response.headers.get('content-length'));
    if (!response.headers.get('content-encoding') && length > 0) state.total = length;
    const [counted, compiled] = response.body.tee();
    const reader = counted.getReader();
    (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        state.received += value.byteLength;
      }
    })().catch(() => {});
    const wasm = new Response(compiled, { headers: { 'content-type': 'application/wasm' } });
    return WebAssembly.compileStreaming(wasm);
  })();
  return state;
}

globalThis.playgroundEngine = {
  current: load(),
  /** Starts a new download (after a failed one). */
  retry() {
    this.current = load();
    return this.current;
  },
};
