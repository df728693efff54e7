// Module-worker bootstrap for the engine built with burn's `fusion` feature (see
// engine-bootstrap.js, which it mirrors).
//
// The page compiles the engine's wasm once and posts the compiled WebAssembly.Module as the first
// message; instantiating from it (instead of fetching the file) is what makes replacing a worker
// after a panic fast. wasm-bindgen's `init` then runs the binary's `main`, which starts the engine
// and takes over `onmessage`.
import init from './engine-worker-fusion.js';

// The first adapter a worker asks WebGPU for takes milliseconds to tens of them, the ones after
// it under one (BENCHMARKS.md): asked here, while the engine module is still on its way (the page
// starts its first worker before the engine is compiled), so that the engine's own requests
// (its probe, then burn-wgpu's) are the fast ones. Not awaited: the engine asks again anyway.
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
