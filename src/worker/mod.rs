//! The engine worker: the wasm entry point that runs the [`Engine`] inside a dedicated Web Worker.
//!
//! It acquires the GPU (WebGPU through burn-wgpu) asynchronously — or explains why it cannot and
//! serves the CPU backend only — then answers [`ToWorker::Run`] messages one at a time. Its panic
//! hook posts [`FromWorker::Panicked`] before the wasm instance traps, so the page learns what
//! happened even though the worker is gone.
//!
//! The page starts it through `engine-bootstrap.js`, handing over an already compiled
//! `WebAssembly.Module`, so replacing a dead worker never refetches or recompiles the wasm.

mod webgpu_probe;

use std::cell::Cell;
use std::rc::Rc;

use burn::tensor::Device;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::engine::devices::{self, GpuDevice};
use crate::engine::{Engine, panic_capture};
use crate::ops::trace;
use crate::outcome::{Outcome, PanicReport};
use crate::present::SHOWN_VALUES;
use crate::protocol::{self, FromWorker, ToWorker};

thread_local! {
    /// The run in progress, so the panic hook can say which run panicked.
    static CURRENT_RUN: Cell<Option<u64>> = const { Cell::new(None) };
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(message: &FromWorker) {
    match protocol::encode(message) {
        Ok(bytes) => {
            let _ = scope().post_message(&js_sys::Uint8Array::from(bytes.as_slice()));
        }
        Err(error) => web_sys::console::error_1(&format!("engine worker: {error}").into()),
    }
}

/// Runs in the panic hook, before the instance traps.
fn post_panic(report: &PanicReport) {
    let mut report = report.clone();
    report.impls = trace::take();
    post(&FromWorker::Panicked {
        id: CURRENT_RUN.with(Cell::get),
        report,
    });
}

/// Awaits `work` as run `id`, so that a panic on the way is reported as that run's.
async fn as_current_run<T>(id: u64, work: impl std::future::Future<Output = T>) -> T {
    CURRENT_RUN.with(|current| current.set(Some(id)));
    let result = work.await;
    CURRENT_RUN.with(|current| current.set(None));
    result
}

/// Starts the worker: installs the panic hook, initialises the engine, then serves runs.
pub fn start() {
    panic_capture::install(Some(post_panic));
    wasm_bindgen_futures::spawn_local(async {
        let engine = Rc::new(Engine::from_parts(acquire_gpu().await, Device::flex()));
        let serving = Rc::clone(&engine);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let bytes = js_sys::Uint8Array::new(&event.data()).to_vec();
            match protocol::decode::<ToWorker>(&bytes) {
                Ok(ToWorker::Run { id, scenario }) => {
                    let engine = Rc::clone(&serving);
                    wasm_bindgen_futures::spawn_local(async move {
                        let mut outcome = as_current_run(id, engine.run(&scenario)).await;
                        // The page shows the first values only: send no more across.
                        if let Outcome::Completed(completed) = &mut outcome {
                            completed.truncate_values(SHOWN_VALUES);
                        }
                        post(&FromWorker::Finished { id, outcome });
                    });
                }
                Ok(ToWorker::RunCase { id, case }) => {
                    let engine = Rc::clone(&serving);
                    wasm_bindgen_futures::spawn_local(async move {
                        let outcome = as_current_run(id, engine.run_case(case)).await;
                        post(&FromWorker::CaseFinished { id, outcome });
                    });
                }
                Err(error) => web_sys::console::error_1(
                    &format!("engine worker: unreadable message: {error}").into(),
                ),
            }
        });
        scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        // The worker lives as long as its handler; it is never removed.
        on_message.forget();
        post(&FromWorker::Ready {
            gpu: engine.gpu().map(str::to_owned).map_err(str::to_owned),
        });
    });
}

/// The GPU device, or why the worker serves the CPU backend only.
async fn acquire_gpu() -> Result<GpuDevice, String> {
    let adapter = webgpu_probe::probe().await?;
    // cubecl-wgpu 0.11 profiles with timestamp queries on wasm and panics on the first op
    // without them; checking first turns that panic into a plain CPU fallback.
    if !adapter.has_timestamp_query {
        return Err(format!(
            "the WebGPU adapter ({}) lacks the `timestamp-query` feature that burn-wgpu needs in browsers",
            adapter.name
        ));
    }
    let mut gpu = devices::init_gpu().await?;
    gpu.adapter = adapter.name;
    gpu.wgpu_device.set_device_lost_callback(|reason, message| {
        post(&FromWorker::DeviceLost(format!("{reason:?}: {message}")));
    });
    Ok(gpu)
}
