// Module-worker bootstrap for the engine built with burn's `fusion` feature (see
// engine-bootstrap.js, which it mirrors).
//
// The page compiles the engine's wasm once and posts the compiled WebAssembly.Module as the first
// message; instantiating from it (instead of fetching the file) is what makes replacing a worker
// after a panic fast. wasm-bindgen's `init` then runs the binary's `main`, which starts the engine
// and takes over `onmessage`.
import init from './engine-worker-fusion.js';

// The adapter warm-up engine-bootstrap.js explains.
self.warmAdapter = navigator.gpu?.requestAdapter().catch(() => null);

self.addEventListener(
  'message',
  (event) => {
    init({ module_or_path: event.data }).catch((error) => {
      self.postMessage({ BootFailed: String(error) });
    });
  },
  { once: true },
);
