//! The engine's compiled `WebAssembly.Module`, and how far its download has come.
//!
//! `engine-loader.js` (a module script in `index.html`) starts the download and the streaming
//! compilation while the page's own wasm is still loading; this picks the result up and reports
//! the bytes received until the module is compiled, and hands over the first engine worker, which
//! the script started with the page. Without that script (a page built or served
//! without it) the module is fetched here instead.

use js_sys::{Promise, Reflect, WebAssembly};
use leptos::prelude::{Set, WriteSignal};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// The engine's wasm, as the build names it (the loader script, when present, also picks the
/// fusion engine).
const ENGINE_WASM_URL: &str = "engine-worker_bg.wasm";
/// How often the download progress is read, in milliseconds.
const PROGRESS_INTERVAL_MS: u32 = 100;

/// How far the engine's download has come.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LoadProgress {
    /// Bytes of the engine received (decompressed).
    pub received: f64,
    /// The part of the download done, when the engine's size is known.
    pub fraction: Option<f64>,
    /// The bytes the download takes over the network (compressed, when the host compresses),
    /// when known.
    pub total: Option<f64>,
    /// The part of `total` received so far.
    pub sent: Option<f64>,
    /// The engine comes from this browser's cache (a service worker), not the network.
    pub cached: bool,
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

/// The loader's current download: `{ module: Promise, received, total }`.
fn loader_state(retry: bool) -> Option<JsValue> {
    let loader = get(&js_sys::global(), "playgroundEngine");
    if loader.is_undefined() {
        return None;
    }
    if retry {
        let retry: js_sys::Function = get(&loader, "retry").dyn_into().ok()?;
        return retry.call0(&loader).ok();
    }
    Some(get(&loader, "current"))
}

/// The compiled engine module. `progress` shows the download while it lasts and is cleared
/// when it ends. `retry` starts a new download instead of taking the page's first one.
pub async fn compiled_module(
    progress: WriteSignal<Option<LoadProgress>>,
    retry: bool,
) -> Result<JsValue, String> {
    let Some(state) = loader_state(retry) else {
        return fetch_and_compile().await;
    };
    let module: Promise = get(&state, "module")
        .dyn_into()
        .map_err(|_| "the engine loader gave no module".to_owned())?;
    let done = std::rc::Rc::new(std::cell::Cell::new(false));
    {
        let done = std::rc::Rc::clone(&done);
        let state = state.clone();
        wasm_bindgen_futures::spawn_local(async move {
            while !done.get() {
                progress.set(Some(LoadProgress {
                    received: get(&state, "received").as_f64().unwrap_or(0.0),
                    fraction: get(&state, "fraction").as_f64(),
                    total: get(&state, "total").as_f64(),
                    sent: get(&state, "sent").as_f64(),
                    cached: get(&state, "cached").as_bool().unwrap_or(false),
                }));
                gloo_timers::future::TimeoutFuture::new(PROGRESS_INTERVAL_MS).await;
            }
        });
    }
    let result = JsFuture::from(module).await.map_err(describe);
    done.set(true);
    progress.set(None);
    result
}

/// The engine worker the loader started with the page (its scripts loaded and WebGPU asked for an
/// adapter while the engine compiled), the first time it is asked for; `None` after, without the
/// loader, or when that worker failed to start.
pub fn started_worker() -> Option<web_sys::Worker> {
    let loader = get(&js_sys::global(), "playgroundEngine");
    let take: js_sys::Function = get(&loader, "takeWorker").dyn_into().ok()?;
    take.call0(&loader).ok()?.dyn_into().ok()
}

/// Fetches and compiles the engine here (when the loader script is missing).
async fn fetch_and_compile() -> Result<JsValue, String> {
    let window = web_sys::window().ok_or("no window")?;
    let streaming = WebAssembly::compile_streaming(&window.fetch_with_str(ENGINE_WASM_URL));
    JsFuture::from(streaming).await.map_err(describe)
}

fn describe(error: JsValue) -> String {
    error
        .dyn_ref::<js_sys::Error>()
        .map(|error| String::from(error.message()))
        .unwrap_or_else(|| format!("{error:?}"))
}
