//! # burn's macro, as a library
//!
//! burn's `#[backend_extension(...)]` is a proc macro: rustc runs it while compiling. Its crate,
//! burn-backend-extension, keeps the whole expansion in plain `proc_macro2` modules (`catalog`,
//! `derive`, `dispatch`, `extension`, `fusion`, `ir`, `routing`); only its `lib.rs` touches
//! `proc_macro`. `build.rs` compiles those very modules into this crate, from the pinned version
//! cargo fetched, so [`expand`] runs burn's own code on text a person typed: natively in the
//! tests, and in the page's expander worker (wasm32, where proc-macro2 runs in its fallback mode).
//!
//! - `expand`: text in, the expansion or the macro's errors out, with their places in the text.
//! - `outline`: what a project implementing an accepted declaration needs of it (its traits,
//!   selectors and method stubs).
//! - `delimiters`: where the text's brackets fail to balance, when the lexer could not say.
//! - [`protocol`]: the answer as plain data, shared with the page (which builds this crate
//!   without the `expand` feature, so without syn).
//!
//! What is checked is what the macro checks. rustc's type checks run only when the expansion is
//! built, which this crate never does.

// The modules of burn's macro, at this crate's root as in theirs (they name each other as
// `crate::…`), and what their `lib.rs` re-exports for them.
#[cfg(feature = "expand")]
include!(concat!(env!("OUT_DIR"), "/burn_macro_modules.rs"));
#[cfg(feature = "expand")]
pub(crate) use catalog::{BACKENDS, BackendSpec};

#[cfg(feature = "expand")]
pub mod delimiters;
#[cfg(feature = "expand")]
mod expand;
#[cfg(feature = "expand")]
mod outline;
pub mod protocol;

#[cfg(feature = "expand")]
pub use expand::{MAX_NESTING, expand};
pub use protocol::{
    Expansion, MAX_TEXT_BYTES, MacroError, Method, Origin, Outline, Place, Selector, TraitOutline,
};

/// The version of burn-backend-extension compiled in.
#[cfg(feature = "expand")]
pub const BURN_MACRO_VERSION: &str = env!("BURN_MACRO_VERSION");

/// The license texts of the compiled macro code, shipped inside the expander.
#[cfg(feature = "expand")]
pub const LICENSES: [(&str, &str); 2] = [
    (
        "LICENSE-MIT",
        include_str!(concat!(env!("OUT_DIR"), "/LICENSE-MIT")),
    ),
    (
        "LICENSE-APACHE",
        include_str!(concat!(env!("OUT_DIR"), "/LICENSE-APACHE")),
    ),
];
