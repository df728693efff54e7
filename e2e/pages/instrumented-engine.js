// Test instrumentation for the engine worker, injected by rewriting engine-bootstrap.js on its
// way to the browser (the shipped bootstrap stays untouched). It runs inside the worker before
// the engine starts and exposes, for Worker.evaluate():
//   self.__engineMemory      the engine's WebAssembly.Memory
//   self.__liveGpuBuffers()  GPU buffers created and not destroyed
//   self.__gpuDevice         the GPUDevice burn-wgpu acquired
// With `hideTimestampQuery`, adapters report no `timestamp-query` feature.

/** JavaScript prepended to the bootstrap. */
export function instrumentation({ hideTimestampQuery = false } = {}) {
  return `
(() => {
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = async (...args) => {
    const result = await instantiate(...args);
    const instance = result.instance ?? result;
    self.__engineMemory = instance.exports.memory;
    return result;
  };
  if (typeof GPUAdapter === 'undefined') return;
  let live = 0;
  self.__liveGpuBuffers = () => live;
  const createBuffer = GPUDevice.prototype.createBuffer;
  GPUDevice.prototype.createBuffer = function (descriptor) {
    const buffer = createBuffer.call(this, descriptor);
    live += 1;
    const destroy = buffer.destroy.bind(buffer);
    let destroyed = false;
    buffer.destroy = () => { if (!destroyed) { destroyed = true; live -= 1; } destroy(); };
    return buffer;
  };
  const requestDevice = GPUAdapter.prototype.requestDevice;
  GPUAdapter.prototype.requestDevice = async function (...args) {
    const device = await requestDevice.apply(this, args);
    self.__gpuDevice = device;
    return device;
  };
  if (${hideTimestampQuery}) {
    const features = Object.getOwnPropertyDescriptor(GPUAdapter.prototype, 'features').get;
    Object.defineProperty(GPUAdapter.prototype, 'features', {
      get() {
        const real = features.call(this);
        return new Set([...real].filter((feature) => feature !== 'timestamp-query'));
      },
    });
  }
})();
`;
}

/** Serves the instrumented bootstrap to `page`. */
export async function instrumentEngine(page, options) {
  await page.route('**/engine-bootstrap.js', async (route) => {
    const response = await route.fetch();
    const original = await response.text();
    await route.fulfill({ response, body: instrumentation(options) + original });
  });
}

/** The engine's current worker (the newest one). */
export function engineWorker(page) {
  const workers = page.workers();
  return workers[workers.length - 1];
}
