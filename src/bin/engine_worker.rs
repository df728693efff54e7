//! The engine worker's wasm binary: see [`burn_extension_playground::worker`]. A reactor (no
//! `main`): [`burn_extension_playground::worker::start_reactor`] says why.
#![no_main]

#[wasm_bindgen::prelude::wasm_bindgen(start)]
fn start() {
    burn_extension_playground::worker::start_reactor();
}
