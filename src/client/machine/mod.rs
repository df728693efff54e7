//! The engine client as a state machine: [`Event`]s in, [`Command`]s out.
//!
//! It decides everything about the engine workers — when to start one, which one serves, what
//! to send it, when to give up on it — and nothing about how: the page's shell
//! (`ui::engine_shell`) turns each command into a `Worker`, a `postMessage`, a timer or a signal,
//! and feeds what the browser reports back as events. So every transition is testable natively,
//! without a browser.
//!
//! The rules:
//! - One request is in flight at a time. Scenario runs are latest-wins: a newer run replaces a
//!   queued one, which is answered [`Reply::Superseded`]. Gallery snippets queue in order and go
//!   first. Requests made while no worker is ready wait for one.
//! - Training is a request too, one at a time: a new one stops the one in flight (the worker
//!   ends it after its current step) and replaces a queued one. Its progress streams back as
//!   [`Command::Progress`], and each progress message resets its watchdog.
//! - A panic in burn traps the worker's wasm instance: its panic hook reports it first
//!   ([`FromWorker::Panicked`]), and the worker is replaced. So is a worker that dies otherwise (a
//!   failed load), hangs (no answer within the run timeout) or loses its GPU device.
//! - After the first answer, a spare worker starts beside the current one, so that a
//!   replacement is ready at once: it has its wasm instance and GPU device, and has run every
//!   op's kernels once (the worker warms itself before it says it is ready). It starts then and
//!   not earlier because on a small machine a second worker slows the first result down. For
//!   the same reason, after a spare took over, the next spare starts once the new current worker
//!   has answered (the fix a person clicks after a panic runs uncontended) or
//!   [`SPARE_DELAY_MS`] later, whichever comes first.
//! - A worker that dies before it is ready counts as a failed start; after
//!   [`MAX_FAILED_STARTS`] in a row the engine is [`Status::Failed`], every waiting request is
//!   answered, later requests are answered at once, and [`Event::RetryRequested`] starts over.

//!
//! One file per concern, each `impl Machine` block beside the tests of what it does:
//! - [`queue`]: what waits, what is in flight, and what is sent next;
//! - [`workers`]: the serving worker and its spare, their messages, replacement and giving up;
//! - [`watchdog`]: the timers and what happens when one runs out;
//! - [`training`]: training runs, their progress and how they stop.

mod queue;
#[cfg(test)]
mod test_support;
mod training;
mod watchdog;
mod workers;

use std::collections::VecDeque;

use crate::model::gallery_case::GalleryCase;
use crate::model::outcome::{CaseOutcome, Outcome, PanicReport};
use crate::model::protocol::{FromWorker, ToWorker};
use crate::model::scenario::Scenario;
use crate::model::training::{LossPoint, TrainOutcome, TrainRequest};

use queue::InFlight;
pub use watchdog::{RUN_TIMEOUT_MS, SPARE_DELAY_MS, START_TIMEOUT_MS, Timer};
pub use workers::MAX_FAILED_STARTS;
use workers::Worker;

/// Identifies one worker the client started.
pub type WorkerId = u64;
/// Identifies one request (a scenario run or a gallery snippet).
pub type RequestId = u64;

/// What the page knows about the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// Downloading and compiling the engine, then starting its worker.
    Loading,
    /// Ready; `gpu` is the adapter name, or why runs go to the CPU. `note` tells about a
    /// replacement that happened meanwhile.
    Ready {
        gpu: Result<String, String>,
        note: Option<String>,
    },
    /// The previous worker is gone (the text says why); a new one is starting.
    Restarting(String),
    /// The engine cannot start; the text says why. [`Event::RetryRequested`] tries again.
    Failed(String),
}

/// Where the spare worker is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpareState {
    /// There is none.
    None,
    /// It is starting (instantiating the engine, acquiring its device).
    Starting,
    /// It is ready and running its warm-up.
    Warming,
    /// It is ready, its kernels for the last scenario compiled.
    Warm,
}

/// How a request ended, from the page's point of view.
#[derive(Clone, Debug, PartialEq)]
pub enum Reply {
    /// The engine answered with an outcome.
    Outcome(Outcome),
    /// burn panicked, which took the worker down; it was replaced.
    WorkerPanicked(PanicReport),
    /// A gallery snippet's outcome.
    Case(CaseOutcome),
    /// A training run's outcome.
    Trained(TrainOutcome),
    /// The request could not be answered (the worker died, hung or could not start).
    Failed(String),
    /// A newer run replaced this one before it was sent.
    Superseded,
}

/// What happened, as the shell reports it.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// The engine's wasm module is compiled: workers can start.
    ModuleCompiled,
    /// The engine's wasm module could not be fetched or compiled.
    ModuleFailed(String),
    /// The page asks for a scenario run.
    RunRequested(RequestId, Scenario),
    /// The page asks for a gallery snippet.
    CaseRequested(RequestId, GalleryCase),
    /// The page asks for a training run.
    TrainRequested(RequestId, TrainRequest),
    /// The page asks to stop a training run.
    StopRequested(RequestId),
    /// A worker sent a message.
    Message(WorkerId, FromWorker),
    /// A worker's `error` event (a trap, or a script that failed to load).
    WorkerError(WorkerId, String),
    /// A timer the client started has run out.
    TimerFired(Timer),
    /// The person asked to try again after the engine failed.
    RetryRequested,
}

/// What the shell must do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Start a worker with the compiled module.
    Spawn(WorkerId),
    /// Send a message to a worker.
    Post(WorkerId, ToWorker),
    /// Stop a worker and forget its handlers.
    Terminate(WorkerId),
    /// Start a timer.
    StartTimer(Timer),
    /// Answer a request; `sent` is the scenario as it went to the engine, for scenario runs.
    Reply {
        request: RequestId,
        reply: Reply,
        sent: Option<Scenario>,
    },
    /// Show the engine's status.
    ShowStatus(Status),
    /// The spare worker's state, for the page to expose (tests and benchmarks wait on it).
    ShowSpare(SpareState),
    /// Losses of a training run, as they arrive.
    Progress {
        request: RequestId,
        points: Vec<LossPoint>,
    },
}

/// The client's whole state.
#[derive(Debug, Default)]
pub struct Machine {
    module_compiled: bool,
    failed: Option<String>,
    current: Option<Worker>,
    spare: Option<Worker>,
    in_flight: Option<InFlight>,
    queued_run: Option<(RequestId, Scenario)>,
    queued_cases: VecDeque<(RequestId, GalleryCase)>,
    queued_train: Option<(RequestId, TrainRequest)>,
    next_worker: WorkerId,
    failed_starts: u32,
    /// Whether any request was answered yet: the spare starts after the first answer.
    answered_once: bool,
    /// A spare just took over: the next one waits for an answer or [`Timer::SpareDelay`].
    spare_delayed: bool,
    /// Why the current worker replaced another, for the ready banner once it is ready.
    replacement_note: Option<String>,
    /// The last scenario sent: a spare warms the kernels of its variants.
    last_scenario: Option<Scenario>,
}

impl Machine {
    /// A client with no worker yet: the engine module is loading.
    pub fn new() -> Machine {
        Machine::default()
    }

    /// The status to show before the first event.
    pub fn initial_status() -> Status {
        Status::Loading
    }

    /// Feeds one event; returns what the shell must do, in order.
    pub fn handle(&mut self, event: Event) -> Vec<Command> {
        let mut out = Vec::new();
        match event {
            Event::ModuleCompiled => {
                self.module_compiled = true;
                self.start_current(&mut out);
            }
            Event::ModuleFailed(reason) => self.fail(
                format!("The engine could not be loaded: {reason}"),
                &mut out,
            ),
            Event::RunRequested(id, scenario) => self.on_run_requested(id, scenario, &mut out),
            Event::CaseRequested(id, case) => self.on_case_requested(id, case, &mut out),
            Event::TrainRequested(id, request) => self.on_train_requested(id, request, &mut out),
            Event::StopRequested(id) => self.on_stop_requested(id, &mut out),
            Event::Message(worker, message) => self.on_message(worker, message, &mut out),
            Event::WorkerError(worker, message) => self.on_worker_error(worker, message, &mut out),
            Event::TimerFired(timer) => self.on_timer(timer, &mut out),
            Event::RetryRequested => self.on_retry(&mut out),
        }
        out
    }

    /// Whether the shell should fetch and compile the module again (after a failed load and a
    /// retry).
    pub fn needs_module(&self) -> bool {
        !self.module_compiled && self.failed.is_none()
    }
}

fn reply(request: RequestId, reply: Reply, sent: Option<Scenario>) -> Command {
    Command::Reply {
        request,
        reply,
        sent,
    }
}
