//! The engine worker built with burn's `fusion` feature (the crate's `fusion`): the same entry
//! as `engine_worker.rs`, a second wasm the page loads only when a visitor turns fusion on.
#![no_main]

#[wasm_bindgen::prelude::wasm_bindgen(start)]
fn start() {
    burn_extension_playground::worker::start_reactor();
}
