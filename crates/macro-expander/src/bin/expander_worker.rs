//! The expander worker's wasm: [`expand`] for `expander-bootstrap.js`, which answers the page's
//! messages with it. A reactor (no `main`): nothing runs until the page asks.
#![no_main]

use wasm_bindgen::prelude::wasm_bindgen;

use macro_expander::MacroVersion;

/// Expands `text` with each version of burn's macro code held; the [`macro_expander::Expansion`]s,
/// in [`MacroVersion::ALL`]'s order, postcard-encoded.
#[wasm_bindgen]
pub fn expand(text: &str) -> Vec<u8> {
    let expansions: Vec<_> = MacroVersion::ALL
        .into_iter()
        .map(|version| macro_expander::expand(text, version))
        .collect();
    macro_expander::protocol::encode(&expansions)
}

/// The license texts of the compiled macro code, one after the other under their versions and
/// file names.
#[wasm_bindgen]
pub fn licenses() -> String {
    macro_expander::licenses()
        .iter()
        .map(|(version, name, text)| {
            format!("==> burn-backend-extension {version}: {name} <==\n{text}\n")
        })
        .collect()
}
