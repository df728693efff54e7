//! The editor's wasm ("Write your own declaration"): [`mount_editor`] for
//! `editor-bootstrap.js`, which the page runs when the editor's box first opens. A reactor (no
//! `main`): nothing runs until the page asks.
#![no_main]

use wasm_bindgen::prelude::*;

/// Mounts the editor in `host` (the page's open box), over the page's `link`.
#[wasm_bindgen]
pub fn mount_editor(host: web_sys::HtmlElement, link: JsValue) {
    burn_extension_playground::ui::editor_view::mount(host, link);
}
