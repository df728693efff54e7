//! # burn's macro, as a library
//!
//! burn's `#[backend_extension(...)]` is a proc macro: rustc runs it while compiling. Its crate,
//! burn-backend-extension, keeps the whole expansion in plain `proc_macro2` modules (`catalog`,
//! `derive`, `dispatch`, `extension`, `fusion`, `ir`, `routing`); only its `lib.rs` touches
//! `proc_macro`. `crates/burn-macro` compiles those very modules as a library, one crate per
//! pinned version, from the source cargo fetched, so [`expand`] runs burn's own code on text a
//! person typed: natively in the tests, and in the page's expander worker (wasm32, where
//! proc-macro2 runs in its fallback mode).
//!
//! - `expand`: text in, the expansion or the macro's errors out, with their places in the text,
//!   by either version of burn's macro code held (`crates/burn-macro`: 0.22.1, whose routing
//!   the engine runs, and 0.23.0-pre.1).
//! - `outline`: what a project implementing an accepted declaration needs of it (its traits,
//!   selectors and method stubs).
//! - `sources`: which typed bytes each line of the formatted expansion carries (the spans the
//!   macro gave its tokens, matched with the formatted text's tokens).
//! - `delimiters`: where the text's brackets fail to balance, when the lexer could not say.
//! - [`protocol`]: the answer as plain data, shared with the page (which builds this crate
//!   without the `expand` feature, so without syn).
//!
//! What is checked is what the macro checks. rustc's type checks run only when the expansion is
//! built, which this crate never does.

#[cfg(feature = "expand")]
pub mod delimiters;
#[cfg(feature = "expand")]
mod expand;
#[cfg(feature = "expand")]
mod outline;
pub mod protocol;
#[cfg(feature = "expand")]
mod sources;

#[cfg(feature = "expand")]
pub use expand::{MAX_NESTING, expand};
pub use protocol::{
    Expansion, MAX_TEXT_BYTES, MacroError, MacroVersion, Method, Origin, Outline, Place, Region,
    Selector, SelectorPlace, Served, TraitOutline,
};

/// The license texts of the compiled macro code, shipped inside the expander: each version's.
#[cfg(feature = "expand")]
pub fn licenses() -> Vec<(&'static str, &'static str, &'static str)> {
    [
        (burn_macro_v0_22::VERSION, burn_macro_v0_22::LICENSES),
        (burn_macro_v0_23::VERSION, burn_macro_v0_23::LICENSES),
    ]
    .into_iter()
    .flat_map(|(version, licenses)| {
        licenses
            .into_iter()
            .map(move |(name, text)| (version, name, text))
    })
    .collect()
}
