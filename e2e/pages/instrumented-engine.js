// Test instrumentation for the engine worker, injected by rewriting engine-bootstrap.js on its
// way to the browser (the shipped bootstrap stays untouched). It runs inside the worker before
// the engine starts and exposes, for Worker.evaluate():
//   self.__engineMemory      the engine's WebAssembly.Memory
//   self.__liveGpuBuffers()  GPU buffers created and not destroyed
//   self.__gpuDevice         the GPUDevice burn-wgpu acquired
//   self.__requests          requests received, warm-ups aside (a spare worker has served none)
//   self.__answeredAt        when it last answered a request (the serving worker answered last)
//   self.__workerId          a random id, to tell workers apart across samples
// With `hideTimestampQuery`, adapters report no `timestamp-query` feature. With `leak`, every
// request leaks on purpose — one page of wasm memory and one GPU buffer — so the soak's leak
// check can be shown to fail. With `holdTraining`, the worker stops right after posting its first
// training progress, in a synchronous request to `/__hold-training` that the test answers when it
// is ready (holdTraining below): a test can act while a run is certainly in progress.

/** JavaScript prepended to the bootstrap. */
export function instrumentation({ hideTimestampQuery = false, leak = false, holdTraining = false } = {}) {
  return `
(() => {
  self.__requests = 0;
  self.__workerId = Math.random().toString(36).slice(2);
  self.__leaked = [];
  // When this worker last answered a request (postcard variants 1, 2 and 4: Finished,
  // CaseFinished, TrainFinished): the worker serving the page is the one that answered last.
  self.__answeredAt = -1;
  const post = self.postMessage.bind(self);
  let held = false;
  self.postMessage = (message, ...rest) => {
    // Read before posting: the worker transfers its bytes, so they are gone once posted.
    const variant = message instanceof Uint8Array ? message[0] : undefined;
    if ([1, 2, 4].includes(variant)) {
      self.__answeredAt = performance.timeOrigin + performance.now();
    }
    const posted = post(message, ...rest);
    // Postcard variant 3 is FromWorker::TrainProgress.
    if (${holdTraining} && !held && variant === 3) {
      held = true;
      const hold = new XMLHttpRequest();
      hold.open('GET', new URL('__hold-training', self.location.href), false);
      hold.send();
    }
    return posted;
  };
  self.addEventListener('message', (event) => {
    // Requests are postcard bytes (the compiled module and the loader's ask to load the engine
    // are not), each starting with its variant: 4 is ToWorker::Warm, a spare's warm-up.
    if (!(event.data instanceof Uint8Array) || event.data[0] === 4) return;
    self.__requests += 1;
    if (${leak} && self.__requests > 0) {
      self.__engineMemory?.grow(1);
      if (self.__gpuDevice) self.__leaked.push(self.__gpuDevice.createBuffer({ size: 256, usage: GPUBufferUsage.STORAGE }));
    }
  });
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
    // A worker started just before the test ends may have its script request torn down with the
    // page: nothing is left to instrument then.
    try {
      const response = await route.fetch();
      const original = await response.text();
      await route.fulfill({ response, body: instrumentation(options) + original });
    } catch (error) {
      if (!/has been disposed|has been closed/.test(error.message)) throw error;
    }
  });
}

/**
 * Answers the worker's hold (see `holdTraining`): resolves `held` when the worker is stopped after
 * its first training progress, and lets it go on when `release()` is called.
 */
export async function holdTraining(page) {
  let reached;
  const held = new Promise((resolve) => (reached = resolve));
  let release;
  const released = new Promise((resolve) => (release = resolve));
  await page.route('**/__hold-training', async (route) => {
    reached();
    await released;
    await route.fulfill({ status: 200, body: 'go on' });
  });
  return { held, release };
}

/**
 * Freezes the thread of the worker serving the page's runs for `ms` of real time, as an endless
 * kernel or a deadlock would: a request sent meanwhile waits that long for its answer.
 */
export async function freezeEngine(page, ms) {
  await (await engineWorker(page)).evaluate((ms) => {
    setTimeout(() => {
      const end = Date.now() + ms;
      while (Date.now() < end);
    }, 0);
  }, ms);
}

/** The worker serving the page's runs: of the engine workers, the one that answered last. */
export async function engineWorker(page) {
  let best = null;
  let latest = -Infinity;
  for (const worker of page.workers()) {
    const answeredAt = await worker.evaluate(() => self.__answeredAt ?? -1).catch(() => -1);
    if (answeredAt > latest) {
      best = worker;
      latest = answeredAt;
    }
  }
  return best;
}
