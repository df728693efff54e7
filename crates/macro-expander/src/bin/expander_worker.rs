//! The expander worker's wasm: [`expand`] for `expander-bootstrap.js`, which answers the page's
//! messages with it. A reactor (no `main`): nothing runs until the page asks.
#![no_main]

use wasm_bindgen::prelude::wasm_bindgen;

/// Expands `text` with burn's macro; the [`macro_expander::Expansion`], postcard-encoded.
#[wasm_bindgen]
pub fn expand(text: &str) -> Vec<u8> {
    macro_expander::protocol::encode(&macro_expander::expand(text))
}

/// The license texts of the compiled macro code, one after the other under their file names.
#[wasm_bindgen]
pub fn licenses() -> String {
    macro_expander::LICENSES
        .iter()
        .map(|(name, text)| format!("==> {name} <==\n{text}\n"))
        .collect()
}
