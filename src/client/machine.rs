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

use std::collections::VecDeque;

use crate::model::gallery_case::GalleryCase;
use crate::model::outcome::{CaseOutcome, Outcome, PanicReport};
use crate::model::protocol::{FromWorker, ToWorker};
use crate::model::scenario::{BackendChoice, Declaration, Fix, OpKind, Scenario};
use crate::model::training::{LossPoint, TrainOutcome, TrainRequest};

/// Failed starts in a row (workers that never became ready) before the client gives up.
pub const MAX_FAILED_STARTS: u32 = 3;
/// A run not answered within this time is abandoned and its worker replaced.
pub const RUN_TIMEOUT_MS: u32 = 30_000;
/// A worker not ready within this time counts as a failed start.
pub const START_TIMEOUT_MS: u32 = 60_000;
/// After a spare took over, the next spare starts at the first answer or after this time.
pub const SPARE_DELAY_MS: u32 = 1_000;

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

/// Timers the client asks for; each comes back as [`Event::TimerFired`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// The watchdog of a request in flight; the number counts the signs of life it had (a
    /// training run's progress), so that only the latest watchdog can fire.
    Run(RequestId, u32),
    /// The start watchdog of a worker.
    Start(WorkerId),
    /// The delay before a new spare starts after one took over.
    SpareDelay,
}

impl Timer {
    /// How long the timer runs.
    pub fn duration_ms(self) -> u32 {
        match self {
            Timer::Run(..) => RUN_TIMEOUT_MS,
            Timer::Start(_) => START_TIMEOUT_MS,
            Timer::SpareDelay => SPARE_DELAY_MS,
        }
    }
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

/// A request waiting for a worker, or in flight.
#[derive(Clone, Debug, PartialEq)]
enum Request {
    Run(RequestId, Scenario),
    Case(RequestId, GalleryCase),
    Train(RequestId, TrainRequest),
}

impl Request {
    fn id(&self) -> RequestId {
        match self {
            Request::Run(id, _) | Request::Case(id, _) | Request::Train(id, _) => *id,
        }
    }

    fn sent(self) -> Option<Scenario> {
        match self {
            Request::Run(_, scenario) => Some(scenario),
            Request::Case(..) | Request::Train(..) => None,
        }
    }
}

/// The request in flight: which worker has it, its watchdog's number, and whether it was asked
/// to stop.
#[derive(Clone, Debug, PartialEq)]
struct InFlight {
    request: Request,
    worker: WorkerId,
    watchdog: u32,
    stop_sent: bool,
}

/// A started worker, and what it said when it became ready.
#[derive(Clone, Debug, PartialEq)]
struct Worker {
    id: WorkerId,
    ready: Option<Result<String, String>>,
    /// The op and input shape a spare last warmed its kernels for, and whether it still is.
    warmed_for: Option<(OpKind, Vec<usize>)>,
    warming: bool,
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
            Event::RunRequested(id, scenario) => {
                if let Some(reason) = &self.failed {
                    out.push(reply(id, Reply::Failed(reason.clone()), Some(scenario)));
                } else {
                    if let Some((replaced, scenario)) = self.queued_run.replace((id, scenario)) {
                        out.push(reply(replaced, Reply::Superseded, Some(scenario)));
                    }
                    self.pump(&mut out);
                }
            }
            Event::CaseRequested(id, case) => {
                if let Some(reason) = &self.failed {
                    out.push(reply(id, Reply::Failed(reason.clone()), None));
                } else {
                    self.queued_cases.push_back((id, case));
                    self.pump(&mut out);
                }
            }
            Event::TrainRequested(id, request) => {
                if let Some(reason) = &self.failed {
                    out.push(reply(id, Reply::Failed(reason.clone()), None));
                } else {
                    if let Some((replaced, _)) = self.queued_train.replace((id, request)) {
                        out.push(reply(replaced, Reply::Superseded, None));
                    }
                    // A newer training run ends the one in flight.
                    if let Some(in_flight) = &self.in_flight
                        && let Request::Train(running, _) = in_flight.request
                    {
                        self.stop(running, &mut out);
                    }
                    self.pump(&mut out);
                }
            }
            Event::StopRequested(id) => {
                if self
                    .queued_train
                    .as_ref()
                    .is_some_and(|(queued, _)| *queued == id)
                {
                    self.queued_train = None;
                    out.push(reply(id, Reply::Superseded, None));
                } else {
                    self.stop(id, &mut out);
                }
            }
            Event::Message(worker, message) => self.on_message(worker, message, &mut out),
            Event::WorkerError(worker, message) => self.on_worker_error(worker, message, &mut out),
            Event::TimerFired(timer) => self.on_timer(timer, &mut out),
            Event::RetryRequested => {
                if self.failed.take().is_some() {
                    self.failed_starts = 0;
                    if self.module_compiled {
                        out.push(Command::ShowStatus(Status::Loading));
                        self.start_current(&mut out);
                    } else {
                        // The module itself failed: the shell compiles it again.
                        out.push(Command::ShowStatus(Status::Loading));
                    }
                }
            }
        }
        out
    }

    /// Whether the shell should fetch and compile the module again (after a failed load and a
    /// retry).
    pub fn needs_module(&self) -> bool {
        !self.module_compiled && self.failed.is_none()
    }

    /// Asks the worker to end training run `id` after its current step (once).
    fn stop(&mut self, id: RequestId, out: &mut Vec<Command>) {
        if let Some(in_flight) = self.in_flight.as_mut()
            && in_flight.request.id() == id
            && matches!(in_flight.request, Request::Train(..))
            && !in_flight.stop_sent
        {
            in_flight.stop_sent = true;
            out.push(Command::Post(
                in_flight.worker,
                ToWorker::StopTraining { id },
            ));
        }
    }

    fn is_current(&self, worker: WorkerId) -> bool {
        self.current
            .as_ref()
            .is_some_and(|current| current.id == worker)
    }

    fn spawn(&mut self, out: &mut Vec<Command>) -> Worker {
        self.next_worker += 1;
        let id = self.next_worker;
        out.push(Command::Spawn(id));
        out.push(Command::StartTimer(Timer::Start(id)));
        Worker {
            id,
            ready: None,
            warmed_for: None,
            warming: false,
        }
    }

    fn start_current(&mut self, out: &mut Vec<Command>) {
        let worker = self.spawn(out);
        self.current = Some(worker);
    }

    /// Sends the next waiting request if the current worker is ready and idle.
    fn pump(&mut self, out: &mut Vec<Command>) {
        if self.in_flight.is_some() {
            return;
        }
        let Some(Worker {
            id: worker,
            ready: Some(gpu),
            ..
        }) = self.current.clone()
        else {
            return;
        };
        let request = if let Some((id, case)) = self.queued_cases.pop_front() {
            Request::Case(id, case)
        } else if let Some((id, mut scenario)) = self.queued_run.take() {
            // Without a usable GPU every run goes to the CPU; the page learns what was sent.
            if gpu.is_err() {
                scenario.backend = BackendChoice::Cpu;
            }
            self.last_scenario = Some(scenario.clone());
            Request::Run(id, scenario)
        } else if let Some((id, mut request)) = self.queued_train.take() {
            if gpu.is_err() {
                request.backend = BackendChoice::Cpu;
            }
            Request::Train(id, request)
        } else {
            return;
        };
        let message = match &request {
            Request::Run(id, scenario) => ToWorker::Run {
                id: *id,
                scenario: scenario.clone(),
            },
            Request::Case(id, case) => ToWorker::RunCase {
                id: *id,
                case: *case,
            },
            Request::Train(id, request) => ToWorker::Train {
                id: *id,
                request: request.clone(),
            },
        };
        out.push(Command::Post(worker, message));
        out.push(Command::StartTimer(Timer::Run(request.id(), 0)));
        self.in_flight = Some(InFlight {
            request,
            worker,
            watchdog: 0,
            stop_sent: false,
        });
    }

    /// Answers the request in flight if it is `id`.
    fn answer(&mut self, id: RequestId, answer: Reply, out: &mut Vec<Command>) {
        if self
            .in_flight
            .as_ref()
            .is_some_and(|in_flight| in_flight.request.id() == id)
            && let Some(in_flight) = self.in_flight.take()
        {
            out.push(reply(id, answer, in_flight.request.sent()));
            self.answered_once = true;
            self.spare_delayed = false;
        }
    }

    fn on_message(&mut self, worker: WorkerId, message: FromWorker, out: &mut Vec<Command>) {
        if !self.is_current(worker) {
            return self.on_spare_message(worker, message, out);
        }
        match message {
            FromWorker::Ready { gpu } => {
                self.failed_starts = 0;
                if let Some(current) = self.current.as_mut() {
                    current.ready = Some(gpu.clone());
                }
                let note = self.replacement_note.take();
                out.push(Command::ShowStatus(Status::Ready { gpu, note }));
                self.pump(out);
                self.ensure_spare(out);
            }
            FromWorker::Finished { id, outcome } => {
                self.answer(id, Reply::Outcome(outcome), out);
                self.pump(out);
                self.ensure_spare(out);
                self.warm_spare(out);
            }
            FromWorker::CaseFinished { id, outcome } => {
                self.answer(id, Reply::Case(outcome), out);
                self.pump(out);
                self.ensure_spare(out);
            }
            FromWorker::TrainProgress { id, points } => {
                if let Some(in_flight) = self.in_flight.as_mut()
                    && in_flight.request.id() == id
                {
                    // A sign of life: a fresh watchdog replaces the running one.
                    in_flight.watchdog += 1;
                    out.push(Command::StartTimer(Timer::Run(id, in_flight.watchdog)));
                    out.push(Command::Progress {
                        request: id,
                        points,
                    });
                }
            }
            FromWorker::TrainFinished { id, outcome } => {
                self.answer(id, Reply::Trained(outcome), out);
                self.pump(out);
                self.ensure_spare(out);
            }
            FromWorker::Panicked { id, report } => {
                let reason = report.message.clone();
                if let Some(id) = id {
                    self.answer(id, Reply::WorkerPanicked(report), out);
                }
                // The instance traps right after this message: replace it now rather than wait
                // for its error event. No note on the banner: the panic's own card says what
                // happened, in terms of the scenario that panicked (a panic is the playground
                // working, not the site failing).
                self.replace_current(
                    "Replacing the engine worker after a panic it could not survive…",
                    &reason,
                    None,
                    out,
                );
            }
            FromWorker::BootFailed(reason) => {
                // The wasm itself does not instantiate: another worker would fail the same way.
                self.fail(
                    format!("The engine's WebAssembly could not start: {reason}"),
                    out,
                )
            }
            FromWorker::DeviceLost(reason) => self.on_device_lost(reason, out),
            // A spare promoted while it warmed up: it serves now.
            FromWorker::Warmed => {}
        }
    }

    /// The spare only ever reports that it is ready, that it warmed up, or that it died.
    fn on_spare_message(&mut self, worker: WorkerId, message: FromWorker, out: &mut Vec<Command>) {
        let Some(spare) = self.spare.as_mut().filter(|spare| spare.id == worker) else {
            return;
        };
        match message {
            FromWorker::Ready { gpu } => {
                spare.ready = Some(gpu);
                self.warm_spare(out);
                self.show_spare(out);
            }
            FromWorker::Warmed => {
                spare.warming = false;
                // The person may have moved on to another op or input while it warmed.
                self.warm_spare(out);
                self.show_spare(out);
            }
            // Anything else means it cannot serve: drop it; the next promotion starts a new one.
            _ => {
                out.push(Command::Terminate(worker));
                self.spare = None;
                self.show_spare(out);
            }
        }
    }

    /// Tells the shell where the spare is now.
    fn show_spare(&self, out: &mut Vec<Command>) {
        let state = match &self.spare {
            None => SpareState::None,
            Some(Worker { ready: None, .. }) => SpareState::Starting,
            Some(Worker { warming: true, .. }) => SpareState::Warming,
            Some(_) => SpareState::Warm,
        };
        out.push(Command::ShowSpare(state));
    }

    /// Has a ready spare on a GPU run the variants of the last scenario (its op and inputs on
    /// WebGPU), unless it already did or is doing so. The variants are the scenario with
    /// `Autodiff` declared and each fix, and without a grad context: the routes a person takes
    /// next, none of which can panic, so the warm-up never costs the spare.
    fn warm_spare(&mut self, out: &mut Vec<Command>) {
        let Some(last) = self.last_scenario.clone() else {
            return;
        };
        let key = (last.args.kind(), last.args.shape().to_vec());
        let Some(spare) = self.spare.as_mut() else {
            return;
        };
        if !matches!(spare.ready, Some(Ok(_)))
            || spare.warming
            || spare.warmed_for == Some(key.clone())
        {
            return;
        }
        let variant = |grad_context: bool, fix: Fix| Scenario {
            args: last.args.clone(),
            declaration: Declaration::WITH_AUTODIFF,
            grad_context,
            require_grad: grad_context,
            fix,
            backend: BackendChoice::Gpu,
            fusion: false,
        };
        let scenarios = vec![
            variant(true, Fix::None),
            variant(true, Fix::Detach),
            variant(true, Fix::Builtin),
            variant(false, Fix::None),
        ];
        spare.warming = true;
        spare.warmed_for = Some(key);
        out.push(Command::Post(spare.id, ToWorker::Warm { scenarios }));
    }

    fn on_worker_error(&mut self, worker: WorkerId, message: String, out: &mut Vec<Command>) {
        if !self.is_current(worker) {
            if self.spare.as_ref().is_some_and(|spare| spare.id == worker) {
                out.push(Command::Terminate(worker));
                self.spare = None;
                self.show_spare(out);
            }
            return;
        }
        self.abandon_in_flight(
            format!("The engine worker stopped without a panic report: {message}"),
            out,
        );
        self.replace_current(
            "Restarting the engine worker…",
            &message,
            Some(format!(
                "The engine worker stopped ({message}) and was replaced."
            )),
            out,
        );
    }

    fn on_timer(&mut self, timer: Timer, out: &mut Vec<Command>) {
        match timer {
            Timer::Run(id, watchdog) => {
                let stuck = self.in_flight.as_ref().is_some_and(|in_flight| {
                    in_flight.request.id() == id && in_flight.watchdog == watchdog
                });
                if stuck {
                    let seconds = RUN_TIMEOUT_MS / 1000;
                    self.abandon_in_flight(
                        format!(
                            "The engine did not answer within {seconds} s, so it was stopped and restarted. Run again to retry."
                        ),
                        out,
                    );
                    self.replace_current(
                        "Restarting the engine after a run that did not answer…",
                        "no answer",
                        Some("A run did not answer in time; the engine was replaced.".to_owned()),
                        out,
                    );
                }
            }
            Timer::SpareDelay => {
                self.spare_delayed = false;
                self.ensure_spare(out);
            }
            Timer::Start(worker) => {
                let stuck = self
                    .current
                    .as_ref()
                    .is_some_and(|current| current.id == worker && current.ready.is_none());
                if stuck {
                    let seconds = START_TIMEOUT_MS / 1000;
                    self.replace_current(
                        "Restarting the engine, which did not start…",
                        &format!("it did not start within {seconds} s"),
                        None,
                        out,
                    );
                } else if self
                    .spare
                    .as_ref()
                    .is_some_and(|spare| spare.id == worker && spare.ready.is_none())
                {
                    out.push(Command::Terminate(worker));
                    self.spare = None;
                    self.show_spare(out);
                }
            }
        }
    }

    /// The GPU device is gone: replace the worker (its replacement acquires a device of its
    /// own) and send the interrupted scenario again, unless a newer one is already waiting.
    fn on_device_lost(&mut self, reason: String, out: &mut Vec<Command>) {
        if let Some(InFlight { request, .. }) = self.in_flight.take() {
            match request {
                Request::Run(id, scenario) if self.queued_run.is_none() => {
                    self.queued_run = Some((id, scenario));
                }
                request => out.push(reply(
                    request.id(),
                    Reply::Failed(format!("The GPU device was lost ({reason}).")),
                    request.sent(),
                )),
            }
        }
        let text = format!(
            "The GPU device was lost ({reason}); a new engine with its own device took over."
        );
        self.replace_current(&text, &reason, Some(text.clone()), out);
    }

    /// Answers the request in flight with a failure.
    fn abandon_in_flight(&mut self, text: String, out: &mut Vec<Command>) {
        if let Some(InFlight { request, .. }) = self.in_flight.take() {
            out.push(reply(request.id(), Reply::Failed(text), request.sent()));
        }
    }

    /// Starts a spare worker when there is none, once a request has been answered.
    fn ensure_spare(&mut self, out: &mut Vec<Command>) {
        let current_ready = self
            .current
            .as_ref()
            .is_some_and(|current| current.ready.is_some());
        if self.spare.is_none()
            && self.answered_once
            && !self.spare_delayed
            && current_ready
            && self.failed.is_none()
        {
            let spare = self.spawn(out);
            self.spare = Some(spare);
            out.push(Command::ShowSpare(SpareState::Starting));
        }
    }

    /// Replaces the current worker after it died: the spare takes over (at once when it is
    /// ready), or a new worker starts. Workers that keep dying before they are ready make the
    /// engine fail instead of restarting forever. `status_text` shows while nothing is ready;
    /// `note` stays on the ready banner afterwards.
    fn replace_current(
        &mut self,
        status_text: &str,
        reason: &str,
        note: Option<String>,
        out: &mut Vec<Command>,
    ) {
        if let Some(dead) = self.current.take() {
            out.push(Command::Terminate(dead.id));
            if dead.ready.is_none() {
                self.failed_starts += 1;
            }
        }
        // A request in flight on the dead worker is never answered by it.
        if self.in_flight.is_some() {
            self.abandon_in_flight(format!("The engine worker stopped: {reason}"), out);
        }
        if self.failed_starts >= MAX_FAILED_STARTS {
            return self.fail(
                format!(
                    "The engine worker failed to start {MAX_FAILED_STARTS} times in a row: {reason}"
                ),
                out,
            );
        }
        // The spare, if any, becomes the current worker; without one a new worker starts.
        let promoted = match self.spare.take() {
            Some(spare) => {
                out.push(Command::ShowSpare(SpareState::None));
                self.current = Some(spare);
                true
            }
            None => false,
        };
        match self
            .current
            .as_ref()
            .and_then(|current| current.ready.clone())
        {
            Some(gpu) => {
                out.push(Command::ShowStatus(Status::Ready { gpu, note }));
                self.spare_delayed = true;
                out.push(Command::StartTimer(Timer::SpareDelay));
                self.pump(out);
            }
            None => {
                self.replacement_note = note;
                out.push(Command::ShowStatus(Status::Restarting(
                    status_text.to_owned(),
                )));
                if !promoted {
                    self.start_current(out);
                }
            }
        }
    }

    /// Gives up: every worker stops, every waiting request is answered, the status says why.
    fn fail(&mut self, reason: String, out: &mut Vec<Command>) {
        self.replacement_note = None;
        for worker in [self.current.take(), self.spare.take()]
            .into_iter()
            .flatten()
        {
            out.push(Command::Terminate(worker.id));
        }
        if let Some(InFlight { request, .. }) = self.in_flight.take() {
            out.push(reply(
                request.id(),
                Reply::Failed(reason.clone()),
                request.sent(),
            ));
        }
        if let Some((id, scenario)) = self.queued_run.take() {
            out.push(reply(id, Reply::Failed(reason.clone()), Some(scenario)));
        }
        if let Some((id, _)) = self.queued_train.take() {
            out.push(reply(id, Reply::Failed(reason.clone()), None));
        }
        for (id, _) in self.queued_cases.drain(..) {
            out.push(reply(id, Reply::Failed(reason.clone()), None));
        }
        out.push(Command::ShowStatus(Status::Failed(reason.clone())));
        self.failed = Some(reason);
    }
}

fn reply(request: RequestId, reply: Reply, sent: Option<Scenario>) -> Command {
    Command::Reply {
        request,
        reply,
        sent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::outcome::{CaseOutcome, PanicLocation};
    use crate::model::scenario::{Declaration, Fix, IntInput, OpArgs};
    use crate::model::training::LossPoint;

    fn scenario(offset: i32) -> Scenario {
        Scenario {
            args: OpArgs::ShiftIds {
                ids: IntInput {
                    shape: vec![1],
                    values: vec![1],
                },
                offset,
            },
            declaration: Declaration::WITHOUT_AUTODIFF,
            grad_context: true,
            require_grad: false,
            fix: Fix::None,
            backend: BackendChoice::Gpu,
            fusion: false,
        }
    }

    fn ready(gpu: Result<&str, &str>) -> FromWorker {
        FromWorker::Ready {
            gpu: gpu.map(str::to_owned).map_err(str::to_owned),
        }
    }

    fn outcome() -> Outcome {
        Outcome::Failed("stand-in outcome".to_owned())
    }

    fn report(message: &str) -> PanicReport {
        PanicReport {
            message: message.to_owned(),
            location: Some(PanicLocation {
                file: "src/ops/shift_ids.rs".to_owned(),
                line: 1,
                column: 1,
            }),
            impls: vec![],
            routing_tensor: None,
            training_step: None,
            stage: None,
            backend: None,
        }
    }

    fn gpu_ready() -> Status {
        Status::Ready {
            gpu: Ok("gpu".to_owned()),
            note: None,
        }
    }

    /// A machine whose first worker (id 1) is ready on the GPU, nothing in flight.
    fn started() -> Machine {
        let mut machine = Machine::new();
        assert_eq!(
            machine.handle(Event::ModuleCompiled),
            vec![Command::Spawn(1), Command::StartTimer(Timer::Start(1))]
        );
        assert_eq!(
            machine.handle(Event::Message(1, ready(Ok("gpu")))),
            vec![Command::ShowStatus(gpu_ready())]
        );
        machine
    }

    fn post_run(worker: WorkerId, id: RequestId, offset: i32) -> Vec<Command> {
        vec![
            Command::Post(
                worker,
                ToWorker::Run {
                    id,
                    scenario: scenario(offset),
                },
            ),
            Command::StartTimer(Timer::Run(id, 0)),
        ]
    }

    /// Worker 1 serves and has answered run 1, which spawned spare worker 2.
    fn serving_after_one_answer() -> Machine {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 1,
                outcome: outcome(),
            },
        ));
        machine
    }

    /// Worker 1 serves and has answered a run; spare worker 2 is ready.
    fn with_ready_spare() -> Machine {
        let mut machine = serving_after_one_answer();
        machine.handle(Event::Message(2, ready(Ok("gpu"))));
        machine
    }

    /// What a worker's readiness does when a run waits: the status, then the run posted.
    fn ready_then_run(worker: WorkerId, id: RequestId, offset: i32) -> Vec<Command> {
        let mut expected = vec![Command::ShowStatus(gpu_ready())];
        expected.extend(post_run(worker, id, offset));
        expected
    }

    fn answered(id: RequestId, reply: Reply, offset: i32) -> Command {
        Command::Reply {
            request: id,
            reply,
            sent: Some(scenario(offset)),
        }
    }

    #[test]
    fn a_run_before_the_worker_is_ready_waits_for_it() {
        let mut machine = Machine::new();
        machine.handle(Event::ModuleCompiled);
        assert_eq!(machine.handle(Event::RunRequested(7, scenario(1))), vec![]);
        assert_eq!(
            machine.handle(Event::Message(1, ready(Ok("gpu")))),
            ready_then_run(1, 7, 1)
        );
    }

    #[test]
    fn the_first_answer_starts_the_spare_worker() {
        let mut machine = started();
        assert_eq!(
            machine.handle(Event::RunRequested(1, scenario(1))),
            post_run(1, 1, 1)
        );
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::Finished {
                    id: 1,
                    outcome: outcome()
                }
            )),
            vec![
                answered(1, Reply::Outcome(outcome()), 1),
                Command::Spawn(2),
                Command::StartTimer(Timer::Start(2)),
                Command::ShowSpare(SpareState::Starting),
            ]
        );
        // Ready, the spare warms the kernels of the last scenario's variants, on WebGPU.
        let variant = |grad_context: bool, fix: Fix| Scenario {
            declaration: Declaration::WITH_AUTODIFF,
            grad_context,
            require_grad: grad_context,
            fix,
            ..scenario(1)
        };
        let warm = |scenarios| Command::Post(2, ToWorker::Warm { scenarios });
        assert_eq!(
            machine.handle(Event::Message(2, ready(Ok("gpu")))),
            vec![
                warm(vec![
                    variant(true, Fix::None),
                    variant(true, Fix::Detach),
                    variant(true, Fix::Builtin),
                    variant(false, Fix::None),
                ]),
                Command::ShowSpare(SpareState::Warming),
            ]
        );
        // Warm for that op and shape: the same scenario again does not warm it again.
        assert_eq!(
            machine.handle(Event::Message(2, FromWorker::Warmed)),
            vec![Command::ShowSpare(SpareState::Warm)]
        );
        machine.handle(Event::RunRequested(2, scenario(5)));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 2,
                outcome: outcome(),
            },
        ));
        assert_eq!(commands, vec![answered(2, Reply::Outcome(outcome()), 5)]);
        // Another input shape: warmed again.
        let mut wider = scenario(1);
        wider.args = OpArgs::ShiftIds {
            ids: IntInput {
                shape: vec![2],
                values: vec![1, 2],
            },
            offset: 1,
        };
        machine.handle(Event::RunRequested(3, wider.clone()));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 3,
                outcome: outcome(),
            },
        ));
        assert!(
            matches!(&commands[1], Command::Post(2, ToWorker::Warm { scenarios }) if scenarios[0].args == wider.args)
        );
    }

    #[test]
    fn a_newer_run_supersedes_the_queued_one_and_runs_after_the_one_in_flight() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        assert_eq!(machine.handle(Event::RunRequested(2, scenario(2))), vec![]);
        assert_eq!(
            machine.handle(Event::RunRequested(3, scenario(3))),
            vec![answered(2, Reply::Superseded, 2)]
        );
        let mut expected = vec![answered(1, Reply::Outcome(outcome()), 1)];
        expected.extend(post_run(1, 3, 3));
        expected.extend([
            Command::Spawn(2),
            Command::StartTimer(Timer::Start(2)),
            Command::ShowSpare(SpareState::Starting),
        ]);
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::Finished {
                    id: 1,
                    outcome: outcome()
                }
            )),
            expected
        );
    }

    #[test]
    fn gallery_snippets_go_before_a_waiting_run() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        machine.handle(Event::RunRequested(2, scenario(2)));
        machine.handle(Event::CaseRequested(3, GalleryCase::CatAcrossBackends));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 1,
                outcome: outcome(),
            },
        ));
        assert_eq!(
            commands[1],
            Command::Post(
                1,
                ToWorker::RunCase {
                    id: 3,
                    case: GalleryCase::CatAcrossBackends
                }
            )
        );
        let case = CaseOutcome::Completed("ran".to_owned());
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::CaseFinished {
                id: 3,
                outcome: case.clone(),
            },
        ));
        assert_eq!(
            commands[0],
            Command::Reply {
                request: 3,
                reply: Reply::Case(case),
                sent: None
            }
        );
        assert_eq!(commands[1..3], post_run(1, 2, 2));
    }

    #[test]
    fn without_a_gpu_runs_are_sent_to_the_cpu() {
        let mut machine = Machine::new();
        machine.handle(Event::ModuleCompiled);
        machine.handle(Event::Message(1, ready(Err("no adapter"))));
        let commands = machine.handle(Event::RunRequested(1, scenario(1)));
        let mut on_cpu = scenario(1);
        on_cpu.backend = BackendChoice::Cpu;
        assert_eq!(
            commands[0],
            Command::Post(
                1,
                ToWorker::Run {
                    id: 1,
                    scenario: on_cpu
                }
            )
        );
    }

    #[test]
    fn a_panic_that_kills_the_worker_is_answered_and_the_ready_spare_takes_over() {
        let mut machine = with_ready_spare();
        machine.handle(Event::RunRequested(2, scenario(2)));
        let panic = report("not implemented: Autodiff not supported for custom op `shift_ids`");
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::Panicked {
                    id: Some(2),
                    report: panic.clone()
                }
            )),
            vec![
                answered(2, Reply::WorkerPanicked(panic), 2),
                Command::Terminate(1),
                Command::ShowSpare(SpareState::None),
                Command::ShowStatus(Status::Ready {
                    gpu: Ok("gpu".to_owned()),
                    note: None,
                }),
                Command::StartTimer(Timer::SpareDelay),
            ]
        );
        // The next run goes to the promoted spare, and its answer starts the next spare.
        assert_eq!(
            machine.handle(Event::RunRequested(3, scenario(3))),
            post_run(2, 3, 3)
        );
        let commands = machine.handle(Event::Message(
            2,
            FromWorker::Finished {
                id: 3,
                outcome: outcome(),
            },
        ));
        assert_eq!(
            commands[1..3],
            [Command::Spawn(3), Command::StartTimer(Timer::Start(3))]
        );
        // The delay, firing later, starts nothing more.
        assert_eq!(machine.handle(Event::TimerFired(Timer::SpareDelay)), vec![]);
    }

    #[test]
    fn without_an_answer_the_next_spare_starts_after_the_delay() {
        let mut machine = with_ready_spare();
        machine.handle(Event::Message(
            1,
            FromWorker::Panicked {
                id: None,
                report: report("not implemented: Backend not supported for custom op `scale`"),
            },
        ));
        assert_eq!(
            machine.handle(Event::TimerFired(Timer::SpareDelay)),
            vec![
                Command::Spawn(3),
                Command::StartTimer(Timer::Start(3)),
                Command::ShowSpare(SpareState::Starting),
            ]
        );
    }

    #[test]
    fn a_panic_caught_inside_the_engine_keeps_the_worker() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        let caught = Outcome::Panicked(report("caught"));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 1,
                outcome: caught.clone(),
            },
        ));
        assert_eq!(commands[0], answered(1, Reply::Outcome(caught), 1));
        assert!(!commands.contains(&Command::Terminate(1)));
        assert_eq!(
            machine.handle(Event::RunRequested(2, scenario(2)))[0],
            post_run(1, 2, 2)[0]
        );
    }

    #[test]
    fn a_crash_without_a_spare_restarts_a_worker_and_the_waiting_run_follows_it() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        assert_eq!(
            machine.handle(Event::WorkerError(1, "unreachable".to_owned())),
            vec![
                answered(
                    1,
                    Reply::Failed(
                        "The engine worker stopped without a panic report: unreachable".to_owned()
                    ),
                    1
                ),
                Command::Terminate(1),
                Command::ShowStatus(Status::Restarting(
                    "Restarting the engine worker…".to_owned()
                )),
                Command::Spawn(2),
                Command::StartTimer(Timer::Start(2)),
            ]
        );
        assert_eq!(machine.handle(Event::RunRequested(2, scenario(2))), vec![]);
        // Ready, the new worker runs what waited, and the banner keeps saying why it took over.
        let mut expected = vec![Command::ShowStatus(Status::Ready {
            gpu: Ok("gpu".to_owned()),
            note: Some("The engine worker stopped (unreachable) and was replaced.".to_owned()),
        })];
        expected.extend(post_run(2, 2, 2));
        assert_eq!(
            machine.handle(Event::Message(2, ready(Ok("gpu")))),
            expected
        );
    }

    #[test]
    fn the_watchdog_abandons_a_run_that_never_answers_and_replaces_the_worker() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        let commands = machine.handle(Event::TimerFired(Timer::Run(1, 0)));
        assert_eq!(
            commands[0],
            answered(
                1,
                Reply::Failed(
                    "The engine did not answer within 30 s, so it was stopped and restarted. Run again to retry."
                        .to_owned()
                ),
                1
            )
        );
        assert_eq!(commands[1], Command::Terminate(1));
        assert_eq!(commands[3], Command::Spawn(2));
        // A late answer from the replaced worker is ignored.
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::Finished {
                    id: 1,
                    outcome: outcome()
                }
            )),
            vec![]
        );
    }

    #[test]
    fn a_watchdog_for_an_answered_run_does_nothing() {
        let mut machine = serving_after_one_answer();
        assert_eq!(machine.handle(Event::TimerFired(Timer::Run(1, 0))), vec![]);
    }

    #[test]
    fn a_worker_that_does_not_start_in_time_is_replaced() {
        let mut machine = Machine::new();
        machine.handle(Event::ModuleCompiled);
        let commands = machine.handle(Event::TimerFired(Timer::Start(1)));
        assert_eq!(
            commands,
            vec![
                Command::Terminate(1),
                Command::ShowStatus(Status::Restarting(
                    "Restarting the engine, which did not start…".to_owned()
                )),
                Command::Spawn(2),
                Command::StartTimer(Timer::Start(2)),
            ]
        );
        // The start watchdog of a worker that did start does nothing.
        machine.handle(Event::Message(2, ready(Ok("gpu"))));
        assert_eq!(machine.handle(Event::TimerFired(Timer::Start(2))), vec![]);
    }

    #[test]
    fn repeated_start_failures_end_in_a_clear_error_that_answers_every_run_and_a_retry_starts_over()
    {
        let mut machine = Machine::new();
        machine.handle(Event::ModuleCompiled);
        machine.handle(Event::RunRequested(1, scenario(1)));
        machine.handle(Event::WorkerError(
            1,
            "its script could not be loaded".to_owned(),
        ));
        machine.handle(Event::WorkerError(
            2,
            "its script could not be loaded".to_owned(),
        ));
        let reason =
            "The engine worker failed to start 3 times in a row: its script could not be loaded";
        assert_eq!(
            machine.handle(Event::WorkerError(
                3,
                "its script could not be loaded".to_owned()
            )),
            vec![
                Command::Terminate(3),
                answered(1, Reply::Failed(reason.to_owned()), 1),
                Command::ShowStatus(Status::Failed(reason.to_owned())),
            ]
        );
        // Later runs are answered at once, never left waiting.
        assert_eq!(
            machine.handle(Event::RunRequested(2, scenario(2))),
            vec![answered(2, Reply::Failed(reason.to_owned()), 2)]
        );
        // Retry: a fresh start with a fresh count.
        assert_eq!(
            machine.handle(Event::RetryRequested),
            vec![
                Command::ShowStatus(Status::Loading),
                Command::Spawn(4),
                Command::StartTimer(Timer::Start(4)),
            ]
        );
        machine.handle(Event::RunRequested(3, scenario(3)));
        assert_eq!(
            machine.handle(Event::Message(4, ready(Ok("gpu")))),
            ready_then_run(4, 3, 3)
        );
    }

    #[test]
    fn a_module_that_fails_to_load_fails_at_once_and_a_retry_asks_for_it_again() {
        let mut machine = Machine::new();
        assert!(machine.needs_module());
        let reason = "The engine could not be loaded: HTTP 404";
        assert_eq!(
            machine.handle(Event::ModuleFailed("HTTP 404".to_owned())),
            vec![Command::ShowStatus(Status::Failed(reason.to_owned()))]
        );
        assert!(!machine.needs_module());
        assert_eq!(
            machine.handle(Event::RetryRequested),
            vec![Command::ShowStatus(Status::Loading)]
        );
        assert!(machine.needs_module());
    }

    #[test]
    fn a_boot_failure_fails_the_engine_without_restarting() {
        let mut machine = Machine::new();
        machine.handle(Event::ModuleCompiled);
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::BootFailed("LinkError".to_owned()),
        ));
        assert_eq!(
            commands,
            vec![
                Command::Terminate(1),
                Command::ShowStatus(Status::Failed(
                    "The engine's WebAssembly could not start: LinkError".to_owned()
                )),
            ]
        );
    }

    #[test]
    fn a_lost_device_reruns_the_interrupted_scenario_on_the_replacement() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::DeviceLost("Destroyed".to_owned()),
        ));
        let text =
            "The GPU device was lost (Destroyed); a new engine with its own device took over.";
        assert_eq!(
            commands,
            vec![
                Command::Terminate(1),
                Command::ShowStatus(Status::Restarting(text.to_owned())),
                Command::Spawn(2),
                Command::StartTimer(Timer::Start(2)),
            ]
        );
        let mut expected = vec![Command::ShowStatus(Status::Ready {
            gpu: Ok("gpu".to_owned()),
            note: Some(
                "The GPU device was lost (Destroyed); a new engine with its own device took over."
                    .to_owned(),
            ),
        })];
        expected.extend(post_run(2, 1, 1));
        assert_eq!(
            machine.handle(Event::Message(2, ready(Ok("gpu")))),
            expected
        );
    }

    #[test]
    fn a_spare_that_dies_is_dropped_and_replaced_at_the_next_answer() {
        let mut machine = serving_after_one_answer();
        assert_eq!(
            machine.handle(Event::WorkerError(2, "unreachable".to_owned())),
            vec![Command::Terminate(2), Command::ShowSpare(SpareState::None)]
        );
        machine.handle(Event::RunRequested(2, scenario(2)));
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::Finished {
                id: 2,
                outcome: outcome(),
            },
        ));
        assert_eq!(
            commands[1..],
            [
                Command::Spawn(3),
                Command::StartTimer(Timer::Start(3)),
                Command::ShowSpare(SpareState::Starting),
            ]
        );
    }

    fn train_request(steps: u32) -> TrainRequest {
        use crate::model::training::{OptimizerChoice, TrainSettings};
        TrainRequest {
            op: crate::model::scenario::OpKind::Scale,
            declaration: Declaration::WITH_AUTODIFF,
            fix: Fix::None,
            backend: BackendChoice::Gpu,
            settings: TrainSettings {
                steps,
                learning_rate: 0.05,
                optimizer: OptimizerChoice::Adam,
            },
        }
    }

    #[test]
    fn training_streams_progress_and_each_progress_resets_the_watchdog() {
        let mut machine = started();
        assert_eq!(
            machine.handle(Event::TrainRequested(1, train_request(100))),
            vec![
                Command::Post(
                    1,
                    ToWorker::Train {
                        id: 1,
                        request: train_request(100)
                    }
                ),
                Command::StartTimer(Timer::Run(1, 0)),
            ]
        );
        let points = vec![LossPoint {
            step: 2,
            custom: 1.5,
            builtin: 1.5,
        }];
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::TrainProgress {
                    id: 1,
                    points: points.clone()
                }
            )),
            vec![
                Command::StartTimer(Timer::Run(1, 1)),
                Command::Progress { request: 1, points },
            ]
        );
        // The first watchdog is stale now; only the latest may fire.
        assert_eq!(machine.handle(Event::TimerFired(Timer::Run(1, 0))), vec![]);
        let trained = TrainOutcome::Failed("stand-in".to_owned());
        assert_eq!(
            machine.handle(Event::Message(
                1,
                FromWorker::TrainFinished {
                    id: 1,
                    outcome: trained.clone()
                }
            ))[0],
            Command::Reply {
                request: 1,
                reply: Reply::Trained(trained),
                sent: None
            }
        );
        assert_eq!(machine.handle(Event::TimerFired(Timer::Run(1, 1))), vec![]);
    }

    #[test]
    fn stop_is_sent_once_and_a_new_training_run_stops_the_one_in_flight() {
        let mut machine = started();
        machine.handle(Event::TrainRequested(1, train_request(100)));
        assert_eq!(
            machine.handle(Event::StopRequested(1)),
            vec![Command::Post(1, ToWorker::StopTraining { id: 1 })]
        );
        assert_eq!(machine.handle(Event::StopRequested(1)), vec![]);

        let mut machine = started();
        machine.handle(Event::TrainRequested(1, train_request(100)));
        assert_eq!(
            machine.handle(Event::TrainRequested(2, train_request(50))),
            vec![Command::Post(1, ToWorker::StopTraining { id: 1 })]
        );
        // A third one replaces the second while it waits.
        assert_eq!(
            machine.handle(Event::TrainRequested(3, train_request(10))),
            vec![Command::Reply {
                request: 2,
                reply: Reply::Superseded,
                sent: None
            }]
        );
        let commands = machine.handle(Event::Message(
            1,
            FromWorker::TrainFinished {
                id: 1,
                outcome: TrainOutcome::Failed("stopped".to_owned()),
            },
        ));
        assert_eq!(
            commands[1],
            Command::Post(
                1,
                ToWorker::Train {
                    id: 3,
                    request: train_request(10)
                }
            )
        );
    }

    #[test]
    fn stopping_a_training_run_that_still_waits_drops_it() {
        let mut machine = started();
        machine.handle(Event::RunRequested(1, scenario(1)));
        machine.handle(Event::TrainRequested(2, train_request(10)));
        assert_eq!(
            machine.handle(Event::StopRequested(2)),
            vec![Command::Reply {
                request: 2,
                reply: Reply::Superseded,
                sent: None
            }]
        );
    }
}
