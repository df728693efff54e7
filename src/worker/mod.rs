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

use std::cell::{Cell, RefCell};
use std::collections::HashSet;

use futures::StreamExt;
use futures::channel::mpsc;

use burn::tensor::Device;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

use crate::engine::devices::{self, GpuDevice};
use crate::engine::{Engine, panic_capture};
use crate::model::outcome::{Outcome, PanicReport};
use crate::model::protocol::{self, FromWorker, ToWorker, VALUES_SENT};
use crate::model::training::LossPoint;
use crate::ops::trace;

thread_local! {
    /// The run in progress, so the panic hook can say which run panicked.
    static CURRENT_RUN: Cell<Option<u64>> = const { Cell::new(None) };
    /// Training runs asked to stop.
    static STOPPED: RefCell<HashSet<u64>> = RefCell::new(HashSet::new());
}

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn post(message: &FromWorker) {
    match protocol::encode(message) {
        Ok(bytes) => {
            let bytes = protocol::to_js_bytes(&bytes);
            // Transferred, not copied again: a big tensor's values are megabytes.
            let _ =
                scope().post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()));
        }
        Err(error) => web_sys::console::error_1(&format!("engine worker: {error}").into()),
    }
}

/// Runs in the panic hook, before the instance traps.
fn post_panic(report: &PanicReport) {
    let mut report = report.clone();
    trace::take().complete(&mut report);
    report.training_step = crate::engine::training_step_in_progress();
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

/// Starts an engine binary built as a reactor (`#![no_main]`): runs the module's static
/// constructors once, then [`start`]s the worker.
///
/// Why a reactor: wasm-ld wraps every export of a module with a `main` in a call to the static
/// constructors (`__wasm_call_ctors`, where cubecl registers its IR dialects with `inventory`),
/// so every call from JavaScript into the engine — each message, each resolved WebGPU promise,
/// each allocation for an argument — ran them all again: about 10 ms of every run.
pub fn start_reactor() {
    unsafe extern "C" {
        /// The static constructors, as wasm-ld gathers them.
        fn __wasm_call_ctors();
    }
    // SAFETY: called once, from the binary's start function, before anything else runs.
    unsafe { __wasm_call_ctors() };
    start();
}

/// Starts the worker: installs the panic hook, initialises the engine, then serves requests one
/// at a time, in order (the engine records what a run did in per-thread logs, so two runs must
/// never interleave). A stop for a training run is the exception: it takes effect at once.
pub fn start() {
    panic_capture::install(Some(post_panic));
    wasm_bindgen_futures::spawn_local(async {
        let engine = Engine::from_parts(acquire_gpu().await, Device::flex());
        let (queue, mut requests) = mpsc::unbounded::<ToWorker>();
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
            let bytes = event
                .data()
                .dyn_into::<js_sys::Uint8Array>()
                .map(|bytes| bytes.to_vec())
                .unwrap_or_default();
            match protocol::decode::<ToWorker>(&bytes) {
                Ok(ToWorker::StopTraining { id }) => {
                    STOPPED.with(|stopped| stopped.borrow_mut().insert(id));
                }
                Ok(request) => {
                    let _ = queue.unbounded_send(request);
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
        while let Some(request) = requests.next().await {
            serve(&engine, request).await;
        }
    });
}

/// Answers one request.
async fn serve(engine: &Engine, request: ToWorker) {
    match request {
        ToWorker::Run { id, scenario } => {
            let mut outcome = as_current_run(id, engine.run(&scenario)).await;
            // The page shows the first values only: send no more across.
            if let Outcome::Completed(completed) = &mut outcome {
                completed.truncate_values(VALUES_SENT);
            }
            post(&FromWorker::Finished { id, outcome });
        }
        ToWorker::RunCase { id, case } => {
            let outcome = as_current_run(id, engine.run_case(case)).await;
            post(&FromWorker::CaseFinished { id, outcome });
        }
        ToWorker::Train { id, request } => {
            let mut progress = |points: &[LossPoint]| {
                post(&FromWorker::TrainProgress {
                    id,
                    points: points.to_vec(),
                })
            };
            let stop = || STOPPED.with(|stopped| stopped.borrow().contains(&id));
            let outcome = as_current_run(id, engine.train(&request, &mut progress, &stop)).await;
            // One training run at a time: no stop asked for so far can matter any more.
            STOPPED.with(|stopped| stopped.borrow_mut().clear());
            post(&FromWorker::TrainFinished { id, outcome });
        }
        ToWorker::Warm { scenarios } => {
            for scenario in &scenarios {
                engine.run(scenario).await;
            }
            post(&FromWorker::Warmed);
        }
        // Handled as it arrives, never queued.
        ToWorker::StopTraining { .. } => {}
    }
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
