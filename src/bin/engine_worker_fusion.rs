//! The engine worker built with burn's `fusion` feature (the crate's `fusion`): the same entry
//! as `engine_worker.rs`, a second wasm the page loads only when a visitor turns fusion on.
//! See [`burn_extension_playground::worker`].
//!
//! A reactor, not a command: it has no `main`. wasm-ld wraps every export of a module with a
//! `main` in a call to the static constructors (`__wasm_call_ctors`, where cubecl registers its
//! IR dialects with `inventory`), so every call from JavaScript into the engine — each message,
//! each resolved WebGPU promise, each allocation for an argument — ran them all again: about
//! 10 ms of every run. Here they run once, at start.
#![no_main]

use wasm_bindgen::prelude::wasm_bindgen;

unsafe extern "C" {
    /// The static constructors, as wasm-ld gathers them.
    fn __wasm_call_ctors();
}

#[wasm_bindgen(start)]
fn start() {
    // SAFETY: called once, before anything else in the module runs.
    unsafe { __wasm_call_ctors() };
    burn_extension_playground::worker::start();
}
