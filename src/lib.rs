//! # Burn Extension Playground
//!
//! burn's `#[backend_extension(...)]` macro generates the runtime routing of custom ops. Declare
//! an op without the `Autodiff` selector, call it in a training loop (an autodiff device), and
//! that routing panics. This crate runs the *real* generated routing, natively and in the browser
//! (WebGPU through burn-wgpu), and reports what it did: the result and gradient, or the panic.
//!
//! ## The map
//!
//! Two wasm binaries of one crate, and the native tests, share one library. Arrows are imports;
//! they only point down.
//!
//! ```text
//!   engine worker (wasm, Web Worker)          page (wasm, Leptos)
//!   ─────────────────────────────────         ───────────────────────────────
//!   worker   wasm entry: WebGPU probe,         ui       components, and the shell
//!     │      run loop, progress                  │      that runs client's commands
//!     ▼                                          ├──────────────┐
//!   engine   Scenario → Outcome, training        ▼              ▼
//!     │      panics caught, facts recorded     client         teach
//!     ▼                                        engine client  parsing, form + URL,
//!   ops      burn's generated routing,         state machine  explanations, routing
//!     │      kernels, backward passes              │          view, gallery, export
//!     │                                            │              │
//!     └────────────────────▶ model ◀───────────────┴──────────────┘
//!                  catalog, scenario, outcome, protocol (plain data)
//! ```
//!
//! - [`model`]: plain data both sides share — the declaration [`model::catalog`], the
//!   [`model::scenario`], the observed [`model::outcome`], the worker [`model::protocol`].
//! - `ops` (feature `engine`): the custom ops, each stamped once per catalog line by burn's real
//!   macro, with kernels, backward passes and builtin references side by side.
//! - `engine` (feature `engine`): `Scenario → Outcome`; calls the generated routing, captures
//!   panics, records which implementation ran and what the routing tensor was, reads results
//!   back asynchronously. The same code runs natively (the tests) and in the worker.
//! - `worker` (feature `worker`): the engine worker's wasm entry.
//! - [`client`]: the page's engine client as a state machine (events in, commands out).
//! - [`teach`]: page-only knowledge, tested natively.
//! - `ui` (feature `ui`): the Leptos page.
//!
//! Features: `engine` and `teach` (default), `worker` (engine + browser bindings, built without
//! `teach`), `ui` (the page: `teach` without burn). So editing the page never rebuilds the engine,
//! and editing the engine never rebuilds the page.

#[cfg(feature = "teach")]
pub mod client;
pub mod model;
#[cfg(feature = "teach")]
pub mod teach;

#[cfg(feature = "engine")]
pub mod engine;
#[cfg(feature = "engine")]
pub mod ops;
#[cfg(feature = "ui")]
pub mod ui;
#[cfg(feature = "worker")]
pub mod worker;
