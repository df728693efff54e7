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
//!  text fields ──input──▶ Scenario ──engine──▶ Outcome
//!                           │                     ▲
//!                           └──ops (burn's generated Dispatch routing)
//! ```
//!
//! - [`scenario`]: what to run — op and inputs, declaration, grad context, fix, backend.
//! - [`input`]: text the user typed → typed op arguments, or a message for the field.
//! - [`ops`]: the custom ops, each stamped under every declaration by burn's real macro, with
//!   kernels, backward passes and builtin references side by side.
//! - [`engine`]: `Scenario → Outcome`; calls the generated routing, captures panics with a hook,
//!   records which implementation ran, reads results back asynchronously.
//! - [`outcome`]: what was observed — values, gradients, route, or the panic message and location.
//! - [`protocol`]: the messages between the page and the engine worker.
//!
//! [`scenario`], [`input`], [`outcome`] and [`protocol`] are plain data with no burn dependency; [`ops`] and
//! [`engine`] need the `engine` feature (on by default).

pub mod explain;
pub mod expanded;
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
