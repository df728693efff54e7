// How an engine worker starts: shared by both engines' bootstraps (engine-bootstrap.js,
// engine-bootstrap-fusion.js), which pass the import of their wasm-bindgen glue.
//
// A worker the page starts gets the compiled `WebAssembly.Module` as its first message:
// instantiating from it (instead of fetching the file) is what makes replacing a worker after a
// panic fast. `init` then runs the engine's start, which takes over `onmessage`.
//
// The first worker, started with the page (engine-loader.js), is asked to fetch and compile the
// engine itself (`{ loadEngine }`, with a port to report on): the page's thread is busy starting
// the page while the engine's bytes arrive, and a compile fed from that thread waits for it. It
// reports the download on the port, sends the module there (the page hands it to every worker it
// starts later), keeps a copy in the service worker's cache when asked to, and starts the engine
// at once. The page listens to this worker only once it takes it over, by posting it the module
// like any other: what the engine posts before that is held, and until the copy is kept (a worker
// ended after a panic would cut it short).
//
// The page imports the download itself from here (fetchEngine, keep) for when that worker cannot.
// One file, so that a worker's start waits for as few sequential fetches as possible.

/**
 * Puts `response` (of the build's file `name`) in the cache `cacheName` (none: nothing is kept),
 * so that installing the service worker does not download it again.
 */
export function keep(cacheName, name, response) {
  if (!cacheName || !('caches' in globalThis)) return Promise.resolve();
  const type = name.endsWith('.wasm') ? 'application/wasm' : (response.headers.get('content-type') ?? '');
  // The body as decoded, with its type only: the cache serves it to a later visit as is.
  const kept = new Response(response.body, { headers: { 'content-type': type } });
  return caches.open(cacheName).then((cache) => cache.put(new URL(name, location.href), kept));
}

/**
 * Fetches the engine `url` and compiles it as it arrives (`WebAssembly.compileStreaming` of the
 * response itself, so the browser may keep its compiled code): `module` resolves with it
 * compiled, `kept` once it is in the cache `cacheName` (or could not be put there). `report`
 * receives `{ encoding, length }` once the headers are in (the response's Content-Encoding and
 * Content-Length), `{ received }` (the decompressed bytes so far) as the body arrives, and
 * `{ fetched }` (when the last byte came, in ms since the epoch, comparable across threads) at
 * the end.
 */
export async function fetchEngine(url, cacheName, report) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  report({
    encoding: response.headers.get('content-encoding'),
    length: Number(response.headers.get('content-length')) || null,
  });
  const kept = keep(cacheName, url, response.clone()).catch(() => {});
  // The response itself goes to compileStreaming; a clone is read to count.
  const reader = response.clone().body.getReader();
  (async () => {
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      report({ received });
    }
    report({ fetched: performance.timeOrigin + performance.now() });
  })().catch(() => {});
  return { module: await WebAssembly.compileStreaming(response), kept };
}

/**
 * The first adapter a worker asks WebGPU for takes milliseconds to tens of them, the ones after it
 * under one (BENCHMARKS.md), and holds up the worker's thread while it is set up: asked once the
 * engine's download is under way, so that the engine's own requests (its probe, then
 * burn-wgpu's) are the fast ones. Not awaited: the engine asks again anyway.
 */
function warmAdapter() {
  self.warmAdapter ??= navigator.gpu?.requestAdapter().catch(() => null) ?? null;
}

/**
 * Starts this worker's engine (see above); `glue` imports its wasm-bindgen glue, at once, while
 * the worker waits for its first message.
 */
export function boot(glue) {
  const loading = glue();
  const post = self.postMessage.bind(self);
  // What the engine posted before the page listened (null: nothing is held).
  let held = null;
  // The module this worker compiled itself, when it was asked to, and its copy being kept.
  let own = null;
  let kept = Promise.resolve();
  self.postMessage = (...message) => (held ? held.push(message) : post(...message));
  const release = () => {
    const waiting = held ?? [];
    held = null;
    for (const message of waiting) post(...message);
  };
  let started = false;
  const start = (module) => {
    if (started) return;
    started = true;
    loading
      .then(({ default: init }) => init({ module_or_path: module }))
      .catch((error) => self.postMessage({ BootFailed: String(error) }));
  };

  async function load({ url, cacheName }, port) {
    held = [];
    try {
      const download = fetchEngine(url, cacheName, (report) => port.postMessage(report));
      warmAdapter();
      const loaded = await download;
      own = loaded.module;
      kept = loaded.kept;
      kept.then(() => port.postMessage({ kept: true }));
    } catch (error) {
      held = null;
      port.postMessage({ failed: error?.message ?? String(error) });
      return;
    }
    port.postMessage({ compiled: own, at: performance.timeOrigin + performance.now() });
    start(own);
  }

  // Registered before the engine's `onmessage`: these messages never reach it.
  self.addEventListener('message', (event) => {
    const { data } = event;
    if (data?.loadEngine) {
      event.stopImmediatePropagation();
      load(data.loadEngine, event.ports[0]);
    } else if (data instanceof WebAssembly.Module) {
      event.stopImmediatePropagation();
      // Taken over: the page listens now.
      kept.then(release);
      if (own) return;
      warmAdapter();
      start(data);
    }
  });
}
