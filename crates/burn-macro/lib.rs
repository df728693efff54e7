//! One version of burn's `#[backend_extension]` macro code, as a library.
//!
//! burn-backend-extension keeps its whole expansion in plain `proc_macro2` modules (`catalog`,
//! `derive`, `dispatch`, `extension`, `fusion`, `ir`, `routing`); only its `lib.rs` touches
//! `proc_macro`. `build.rs` compiles those very modules into this crate, from the version the
//! crate's Cargo.toml pins (`v0-22`: 0.22.1, `v0-23`: 0.23.0-pre.1; both crates are this file and
//! that script). The modules name each other as `crate::…`, so each version is a crate of its own.
//!
//! What it offers is what burn's `lib.rs` calls: the expansion of a trait under the attribute,
//! and of the `ExtensionType` derive; plus the backend catalog: its backends and their cfgs.

use proc_macro2::TokenStream;

// The modules of burn's macro, at this crate's root as in theirs, and what their `lib.rs`
// re-exports for them.
include!(concat!(env!("OUT_DIR"), "/burn_macro_modules.rs"));
pub(crate) use catalog::{BACKENDS, BackendSpec};

/// The version of burn-backend-extension compiled in.
pub const VERSION: &str = env!("BURN_MACRO_VERSION");

/// `#[backend_extension(attr)]` on the trait `item`, as burn's proc macro expands it.
pub fn expand_extension(attr: TokenStream, item: TokenStream) -> syn::Result<TokenStream> {
    extension::expand(attr, item)
}

/// `#[derive(ExtensionType)]` on `item`, as burn's proc macro expands it.
pub fn expand_derive(item: TokenStream) -> syn::Result<TokenStream> {
    derive::expand(item)
}

/// The cfg the macro's backend catalog gates the concrete backend `name` behind inside burn
/// (`feature = "flex"`, `cube_backend`); `None` for a name it does not list.
pub fn catalog_cfg(name: &str) -> Option<&'static str> {
    BACKENDS
        .iter()
        .find(|backend| backend.name == name)
        .map(|backend| backend.cfg)
}

/// The concrete backends the macro's catalog lists, in its order.
pub fn catalog_backends() -> Vec<&'static str> {
    BACKENDS.iter().map(|backend| backend.name).collect()
}

/// The license texts of the compiled macro code.
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
