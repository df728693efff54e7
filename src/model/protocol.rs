//! Messages between the page and the engine worker.
//!
//! The page owns the UI; the worker owns the engine (burn, the GPU device). A panic inside burn
//! traps the worker's wasm instance, so the worker's panic hook sends [`FromWorker::Panicked`]
//! *before* the trap; the page then shows it and replaces the worker.
//!
//! ```text
//! page                                   worker
//!  │  (spawn, send compiled module) ───▶  init wasm, init WebGPU or fall back to CPU
//!  │  ◀─────────────────────────────────  Ready { gpu }
//!  │  Run { id, scenario } ────────────▶  engine.run(scenario)
//!  │  ◀─────────────────────────────────  Finished { id, outcome }
//!  │  RunCase { id, case } ────────────▶  engine.run_case(case)   (gallery snippets)
//!  │  ◀─────────────────────────────────  CaseFinished { id, outcome }
//!  │  Train { id, request } ───────────▶  engine.train(request)
//!  │  ◀─────────────────────────────────  TrainProgress { id, points }   (every few steps)
//!  │  StopTraining { id } ─────────────▶  (ends it after the current step)
//!  │  ◀─────────────────────────────────  TrainFinished { id, outcome }
//!  │  Warm { scenarios } ──────────────▶  (a spare runs them: kernels compiled ahead)
//!  │  ◀─────────────────────────────────  Warmed
//!  │                                      …or, when burn panics:
//!  │  ◀─────────────────────────────────  Panicked { id, report }   (then the instance traps)
//! ```
//!
//! Messages travel as postcard bytes ([`encode`], [`decode`]) in a `Uint8Array`: a megabyte of
//! floats crosses in milliseconds, where converting it value by value to JavaScript objects took
//! seconds.

use serde::{Deserialize, Serialize, de::DeserializeOwned};

use crate::model::gallery_case::GalleryCase;
use crate::model::outcome::{CaseOutcome, Outcome, PanicReport};
use crate::model::scenario::Scenario;
use crate::model::training::{LossPoint, TrainOutcome, TrainRequest};

/// Values of each tensor the worker sends back: the page shows no more (differences are
/// computed in the engine over all values first).
pub const VALUES_SENT: usize = 64;

/// Page → worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ToWorker {
    /// Run a scenario; the answer carries the same `id`.
    Run { id: u64, scenario: Scenario },
    /// Run a gallery snippet; the answer carries the same `id`.
    RunCase { id: u64, case: GalleryCase },
    /// Train; progress and the answer carry the same `id`.
    Train { id: u64, request: TrainRequest },
    /// End training run `id` after its current step.
    StopTraining { id: u64 },
    /// Run these scenarios and forget their outcomes: a spare worker compiles the kernels the
    /// next runs will need before it has to serve them.
    Warm { scenarios: Vec<Scenario> },
}

/// Worker → page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum FromWorker {
    /// The engine is initialised and accepts runs.
    Ready {
        /// The GPU adapter's name, or why the GPU backend is unavailable (then only the CPU
        /// backend runs).
        gpu: Result<String, String>,
    },
    /// A run finished without trapping the worker.
    Finished { id: u64, outcome: Outcome },
    /// A gallery snippet finished without trapping the worker.
    CaseFinished { id: u64, outcome: CaseOutcome },
    /// Losses of training run `id`, read back since the last progress message.
    TrainProgress { id: u64, points: Vec<LossPoint> },
    /// Training run `id` ended.
    TrainFinished { id: u64, outcome: TrainOutcome },
    /// The scenarios of a [`ToWorker::Warm`] ran.
    Warmed,
    /// A run or a training step panicked. Sent by the panic hook; the worker is dead after this
    /// message.
    Panicked {
        id: Option<u64>,
        report: PanicReport,
    },
    /// The worker's wasm could not be instantiated (sent by the JavaScript bootstrap).
    BootFailed(String),
    /// The GPU device was lost (driver reset, device destroyed): the worker must be replaced to
    /// acquire a new one.
    DeviceLost(String),
}

/// A message as bytes.
pub fn encode<T: Serialize>(message: &T) -> Result<Vec<u8>, String> {
    postcard::to_allocvec(message).map_err(|error| format!("encoding a message failed: {error}"))
}

/// A message from bytes.
pub fn decode<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    postcard::from_bytes(bytes).map_err(|error| format!("decoding a message failed: {error}"))
}

/// `bytes` copied into a new JavaScript `Uint8Array`, to post (and transfer) to the other side.
///
/// Allocated, then filled with `set`: `Uint8Array::from(&[u8])` builds it with
/// `new Uint8Array(view of the wasm memory)`, which a CPU profile of a million-value run showed
/// copying at a few hundred MB/s (about 15 ms of the worker's thread per 4 MB reply), where `set`
/// copies the same bytes in well under a millisecond.
#[cfg(feature = "browser")]
pub fn to_js_bytes(bytes: &[u8]) -> js_sys::Uint8Array {
    let array = js_sys::Uint8Array::new_with_length(bytes.len() as u32);
    array.copy_from(bytes);
    array
}
