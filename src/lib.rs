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
//!   ─────────────────────────────────         ─────────────────────────────────────
//!   worker   wasm entry: WebGPU probe,         ui       components, and the shell
//!     │      run loop, progress                  │      that runs client's commands
//!     ▼                                          ├──────────────┐
//!   engine   Scenario → Outcome, training        ▼              ▼
//!     │      panics caught, facts recorded     client         teach    (its rooms below)
//!     ▼                                        engine client  words · export · link
//!   ops      burn's generated routing,         state machine    form · routing · code
//!     │      kernels, backward passes              │            input · numbers · chart
//!     │                                            │            editor
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
//! - [`teach`]: page-only knowledge, tested natively, in rooms of one concern each.
//! - `ui` (feature `ui`): the Leptos page.
//!
//! The editor ("Write your own declaration") is a third wasm of this crate, bin `editor-ui`:
//! the same `ui` library, entered through `ui::editor_view::mount` instead of the page's app, so
//! each wasm links only what its entry reaches. The page fetches it when the editor's box first
//! opens and hands it a link to its state (`ui::editor_link`); a visit that never opens the box
//! downloads none of it.
//!
//! A fourth wasm, the editor's expander, is its own crate (`crates/macro-expander`): burn's macro
//! modules compiled as a library (`crates/burn-macro`, 0.22.1 and 0.23.0-pre.1), run in a worker
//! of its own. This crate knows only its answers' data (`macro_expander::protocol`, without the
//! macro code).
//!
//! ## Who imports whom
//!
//! Every room and the rooms it imports, as the code has it (`tests/structure.rs` reads the `use`
//! lines, checks there is no circle, and fails when this table differs from them):
//!
//! | room | imports |
//! |---|---|
//! | `client` | `model` |
//! | `engine` | `model`, `ops` |
//! | `model` | — |
//! | `ops` | `model` |
//! | `teach::chart` | `model` |
//! | `teach::code` | `model` |
//! | `teach::editor` | `model`, `teach::code`, `teach::routing`, `teach::words` |
//! | `teach::export` | `model`, `teach::code`, `teach::numbers`, `teach::words` |
//! | `teach::form` | `model`, `teach::input` |
//! | `teach::input` | `model`, `teach::numbers` |
//! | `teach::link` | `model`, `teach::form` |
//! | `teach::numbers` | `model` |
//! | `teach::routing` | `model`, `teach::code` |
//! | `teach::words` | `model`, `teach::code`, `teach::form`, `teach::numbers`, `teach::routing` |
//! | `ui` | `client`, `model`, `teach::chart`, `teach::code`, `teach::editor`, `teach::export`, `teach::form`, `teach::input`, `teach::link`, `teach::numbers`, `teach::routing`, `teach::words` |
//! | `worker` | `engine`, `model`, `ops` |
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
