//! # Burn Extension Playground
//!
//! burn's `#[backend_extension(...)]` macro generates the runtime routing of custom ops. Declare
//! an op without the `Autodiff` selector, call it in a training loop (an autodiff device), and
//! that routing panics. This crate runs the *real* generated routing, natively and in the browser
//! (WebGPU through burn-wgpu), and reports what it did: the result and gradient, or the panic.
//!
//! ## The pipeline
//!
//! ```text
//!  ops ──▶ engine ──▶ protocol ──▶ worker ═══ postMessage ═══ ui
//!  (burn's generated     Scenario → Outcome    (Web Worker)         (Leptos page)
//!   routing, kernels)
//! ```
//!
//! - [`ops`]: the custom ops, each stamped under every declaration by burn's real macro, with
//!   kernels, backward passes and builtin references side by side.
//! - [`engine`]: `Scenario → Outcome`; calls the generated routing, captures panics with a hook,
//!   records which implementation ran, reads results back asynchronously. Also runs the
//!   gallery's snippets.
//! - [`protocol`]: the messages between the page and the engine worker.
//! - `worker` (feature `worker`): the engine worker's wasm entry: WebGPU probe and init, panic
//!   hook, run loop.
//! - `ui` (feature `ui`): the page: controls, outcome, generated-code view, gallery, engine
//!   client, URL state.
//!
//! Plain data shared by both sides (no burn, no browser):
//! - [`scenario`] (what to run), [`input`] (text → typed arguments), [`form`] (the editable
//!   state and its URL form), [`outcome`] (what was observed);
//! - [`expanded`] (the routing rustc expanded, shipped with the page), [`route_view`] (the arm a
//!   run went through), [`highlight`] (Rust syntax colouring), [`explain`] (meanings and fixes),
//!   [`gallery`] (the related-errors cards), [`present`] (numbers and names as shown).
//!
//! Features: `engine` (default: [`ops`], [`engine`]), `worker`, `ui`. The
//! page's binary builds without `engine`, so UI edits never rebuild burn.

pub mod expanded;
pub mod explain;
pub mod form;
pub mod gallery;
pub mod highlight;
pub mod input;
pub mod outcome;
pub mod present;
pub mod protocol;
pub mod route_view;
pub mod scenario;

#[cfg(feature = "engine")]
pub mod engine;
#[cfg(feature = "engine")]
pub mod ops;
#[cfg(feature = "ui")]
pub mod ui;
#[cfg(feature = "worker")]
pub mod worker;
