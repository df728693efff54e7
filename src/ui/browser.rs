//! Small things the page asks of the browser: a download, whether a `<details>` box is open, a
//! mark in the performance timeline.

use wasm_bindgen::{JsCast, JsValue};

/// Offers `bytes` as a download named `name`, through an object URL.
pub fn download(name: &str, bytes: &[u8]) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&crate::model::protocol::to_js_bytes(bytes));
    let blob = web_sys::Blob::new_with_u8_array_sequence(&parts)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = web_sys::window()
        .and_then(|window| window.document())
        .ok_or("no document")?;
    let link = document.create_element("a")?;
    link.set_attribute("href", &url)?;
    link.set_attribute("download", name)?;
    link.unchecked_ref::<web_sys::HtmlElement>().click();
    web_sys::Url::revoke_object_url(&url)
}

/// Whether the `<details>` a `toggle` event came from is now open.
pub fn details_open(event: &web_sys::Event) -> bool {
    event
        .target()
        .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
        .is_some_and(|details| details.has_attribute("open"))
}

/// Marks `name` in the page's performance timeline: the bench reads where a visit's first result
/// goes from these marks (`page-started`, `engine-worker-started`, `engine-ready`,
/// `first-outcome`; `engine-compiled` is marked by `engine-loader.js`).
pub fn mark(name: &str) {
    if let Some(performance) = web_sys::window().and_then(|window| window.performance()) {
        let _ = performance.mark(name);
    }
}
