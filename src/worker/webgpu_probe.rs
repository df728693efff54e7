//! Asks the browser for a WebGPU adapter before burn does, to learn whether there is one, what
//! it is called, and whether it has the features burn-wgpu needs.
//!
//! Plain `js_sys::Reflect` calls rather than web-sys's WebGPU bindings: those need the
//! `web_sys_unstable_apis` cfg on every build, for four property reads.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

/// What the probe found.
pub struct AdapterProbe {
    /// `vendor architecture (description)`, from `GPUAdapter.info`, e.g. `google swiftshader`.
    pub name: String,
    /// Whether `GPUAdapter.features` has `timestamp-query`.
    pub has_timestamp_query: bool,
}

fn get(target: &JsValue, key: &str) -> JsValue {
    Reflect::get(target, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
}

fn text(target: &JsValue, key: &str) -> String {
    get(target, key).as_string().unwrap_or_default()
}

/// Requests an adapter through `navigator.gpu`.
///
/// # Errors
/// A sentence for the user when the browser has no WebGPU or no adapter.
pub async fn probe() -> Result<AdapterProbe, String> {
    let gpu = get(&get(&js_sys::global(), "navigator"), "gpu");
    if gpu.is_undefined() || gpu.is_null() {
        return Err("this browser does not expose WebGPU (navigator.gpu is missing)".to_owned());
    }
    let request: Function = get(&gpu, "requestAdapter")
        .dyn_into()
        .map_err(|_| "navigator.gpu.requestAdapter is not a function".to_owned())?;
    let promise: Promise = request
        .call0(&gpu)
        .and_then(|value| value.dyn_into())
        .map_err(|_| "navigator.gpu.requestAdapter() failed".to_owned())?;
    let adapter = JsFuture::from(promise)
        .await
        .map_err(|_| "navigator.gpu.requestAdapter() was rejected".to_owned())?;
    if adapter.is_null() || adapter.is_undefined() {
        return Err("the browser offers no WebGPU adapter".to_owned());
    }
    let info = get(&adapter, "info");
    let mut name = [text(&info, "vendor"), text(&info, "architecture")]
        .into_iter()
        .filter(|part| !part.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    let description = text(&info, "description");
    if !description.is_empty() {
        name = if name.is_empty() {
            description
        } else {
            format!("{name} ({description})")
        };
    }
    if name.is_empty() {
        name = "an adapter that does not give its name".to_owned();
    }
    let features = get(&adapter, "features");
    let has: Option<Function> = get(&features, "has").dyn_into().ok();
    let has_timestamp_query = has
        .and_then(|has| {
            has.call1(&features, &JsValue::from_str("timestamp-query"))
                .ok()
        })
        .and_then(|value| value.as_bool())
        .unwrap_or(false);
    Ok(AdapterProbe {
        name,
        has_timestamp_query,
    })
}
