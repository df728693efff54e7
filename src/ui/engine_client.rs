//! The page's side of the engine worker: spawns it, sends runs, and replaces it when it dies.
//!
//! Hand-written rather than a worker crate (gloo-worker and friends): the page must hand each new
//! worker the *compiled* `WebAssembly.Module` (so a restart after a panic costs no fetch and no
//! compile), and must tell a reported panic from a silent crash. Both need the raw `Worker`.
//!
//! One request is in flight at a time. Scenario runs are latest-wins: a newer one replaces a
//! queued one (whose caller gets [`RunReply::Superseded`]). Gallery snippets queue in order and
//! go first. Requests made while the worker starts or restarts wait for it.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use futures::channel::oneshot;
use js_sys::{Promise, WebAssembly};
use leptos::prelude::{Set, WriteSignal};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{ErrorEvent, MessageEvent, Response, Worker, WorkerOptions, WorkerType};

use crate::gallery::GalleryCase;
use crate::outcome::{CaseOutcome, Outcome, PanicReport};
use crate::protocol::{FromWorker, ToWorker};
use crate::scenario::{BackendChoice, Scenario};

/// The worker's module script (copied to `dist/` by trunk).
const BOOTSTRAP_URL: &str = "engine-bootstrap.js";
/// The engine's wasm, as trunk names it for the `engine-worker` binary.
const ENGINE_WASM_URL: &str = "engine-worker_bg.wasm";
/// Restarts in a row without the worker ever becoming ready before the client gives up.
const MAX_FAILED_STARTS: u32 = 3;
/// A run not answered within this time is abandoned and the worker replaced.
const RUN_TIMEOUT_MS: u32 = 30_000;
/// A worker not ready within this time counts as a failed start.
const START_TIMEOUT_MS: u32 = 60_000;

/// What the page knows about the engine.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineStatus {
    /// Downloading and compiling the engine, then starting its worker.
    Loading,
    /// Ready; `gpu` is the adapter name, or why runs go to the CPU.
    Ready { gpu: Result<String, String> },
    /// The previous worker is gone (the text says why); a new one is starting.
    Restarting(String),
    /// The engine cannot start; the message says why.
    Failed(String),
}

/// How a run ended, from the page's point of view.
#[derive(Clone, Debug, PartialEq)]
pub enum RunReply {
    /// The worker answered with an outcome.
    Outcome(Outcome),
    /// burn panicked; the worker reported it and is being replaced.
    Panicked(PanicReport),
    /// A gallery snippet's outcome.
    Case(CaseOutcome),
    /// The worker died without a report; it is being replaced.
    Crashed(String),
    /// A newer run replaced this one before it was sent.
    Superseded,
}

/// Where a request's answer goes: the reply and, for scenario runs, the scenario as sent.
type Sender = oneshot::Sender<(RunReply, Option<Scenario>)>;

/// Cheap to clone: every clone drives the same worker.
#[derive(Clone)]
pub struct EngineClient(Rc<RefCell<Inner>>);

struct Inner {
    status: WriteSignal<EngineStatus>,
    module: Option<JsValue>,
    worker: Option<LiveWorker>,
    ready_gpu: Option<Result<String, String>>,
    /// The request in flight, and the scenario it sent (for scenario runs).
    in_flight: Option<(u64, Sender, Option<Scenario>)>,
    queued_scenario: Option<(Scenario, Sender)>,
    queued_cases: Vec<(GalleryCase, Sender)>,
    next_id: u64,
    failed_starts: u32,
    /// Counts spawned workers, so a timer can tell whether its worker is still the current one.
    worker_generation: u64,
}

/// A worker and the callbacks that must live as long as it does.
struct LiveWorker {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

impl Drop for LiveWorker {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

impl EngineClient {
    /// Compiles the engine and starts its worker in the background; `status` follows along.
    pub fn start(status: WriteSignal<EngineStatus>) -> EngineClient {
        let client = EngineClient(Rc::new(RefCell::new(Inner {
            status,
            module: None,
            worker: None,
            ready_gpu: None,
            in_flight: None,
            queued_scenario: None,
            queued_cases: Vec::new(),
            next_id: 0,
            failed_starts: 0,
            worker_generation: 0,
        })));
        let starting = client.clone();
        wasm_bindgen_futures::spawn_local(async move {
            match compile_engine().await {
                Ok(module) => {
                    starting.0.borrow_mut().module = Some(module);
                    starting.spawn_worker();
                }
                Err(reason) => starting.fail(format!("The engine could not be loaded: {reason}")),
            }
        });
        client
    }

    /// Queues `scenario` (replacing any queued scenario) and resolves when it ends, with the
    /// scenario as it was sent (on the CPU when the GPU turned out to be unavailable).
    pub async fn run(&self, scenario: Scenario) -> (RunReply, Scenario) {
        let (sender, receiver) = oneshot::channel();
        let replaced = self.0.borrow_mut().queued_scenario.replace((scenario.clone(), sender));
        if let Some((_, replaced)) = replaced {
            let _ = replaced.send((RunReply::Superseded, None));
        }
        self.pump();
        let (reply, sent) = receiver.await.unwrap_or((RunReply::Superseded, None));
        (reply, sent.unwrap_or(scenario))
    }

    /// Queues a gallery snippet and resolves when it ends.
    pub async fn run_case(&self, case: GalleryCase) -> RunReply {
        let (sender, receiver) = oneshot::channel();
        self.0.borrow_mut().queued_cases.push((case, sender));
        self.pump();
        receiver.await.map(|(reply, _)| reply).unwrap_or(RunReply::Superseded)
    }

    /// Sends the queued run if the worker is ready and idle.
    fn pump(&self) {
        let mut inner = self.0.borrow_mut();
        if inner.ready_gpu.is_none() || inner.in_flight.is_some() || inner.worker.is_none() {
            return;
        }
        inner.next_id += 1;
        let id = inner.next_id;
        let (message, sender, sent) = if !inner.queued_cases.is_empty() {
            let (case, sender) = inner.queued_cases.remove(0);
            (ToWorker::RunCase { id, case }, sender, None)
        } else if let Some((mut scenario, sender)) = inner.queued_scenario.take() {
            // Without a usable GPU every run goes to the CPU; the caller learns what was sent.
            if matches!(inner.ready_gpu, Some(Err(_))) {
                scenario.backend = BackendChoice::Cpu;
            }
            let sent = Some(scenario.clone());
            (ToWorker::Run { id, scenario }, sender, sent)
        } else {
            return;
        };
        let posted = serde_wasm_bindgen::to_value(&message)
            .map_err(|error| error.to_string())
            .and_then(|value| {
                let worker = inner.worker.as_ref().map(|live| &live.worker);
                worker
                    .ok_or_else(|| "no worker".to_owned())?
                    .post_message(&value)
                    .map_err(|error| format!("{error:?}"))
            });
        match posted {
            Ok(()) => {
                inner.in_flight = Some((id, sender, sent));
                self.watch_run(id);
            }
            Err(reason) => {
                let reply = RunReply::Crashed(format!("The run could not be sent: {reason}"));
                let _ = sender.send((reply, sent));
            }
        }
    }

    /// Abandons run `id` if it is still unanswered after [`RUN_TIMEOUT_MS`].
    fn watch_run(&self, id: u64) {
        let weak = Rc::downgrade(&self.0);
        wasm_bindgen_futures::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(RUN_TIMEOUT_MS).await;
            let Some(inner) = weak.upgrade() else { return };
            let client = EngineClient(inner);
            let stuck = client.0.borrow().in_flight.as_ref().is_some_and(|(current, _, _)| *current == id);
            if stuck {
                let seconds = RUN_TIMEOUT_MS / 1000;
                client.abandon_in_flight(format!(
                    "The engine did not answer within {seconds} s, so it was stopped and restarted. Run again to retry."
                ));
                client.replace_worker("Restarting the engine after a run that did not answer…", "no answer");
            }
        });
    }

    /// Counts worker `generation` as a failed start if it is not ready after [`START_TIMEOUT_MS`].
    fn watch_start(&self, generation: u64) {
        let weak = Rc::downgrade(&self.0);
        wasm_bindgen_futures::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(START_TIMEOUT_MS).await;
            let Some(inner) = weak.upgrade() else { return };
            let client = EngineClient(inner);
            let stuck = {
                let inner = client.0.borrow();
                inner.worker_generation == generation && inner.worker.is_some() && inner.ready_gpu.is_none()
            };
            if stuck {
                let seconds = START_TIMEOUT_MS / 1000;
                client.replace_worker(
                    "Restarting the engine, which did not start…",
                    &format!("it did not start within {seconds} s"),
                );
            }
        });
    }

    fn spawn_worker(&self) {
        let weak = Rc::downgrade(&self.0);
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = match Worker::new_with_options(BOOTSTRAP_URL, &options) {
            Ok(worker) => worker,
            Err(error) => return self.fail(format!("The engine worker could not start: {error:?}")),
        };
        let on_message = {
            let weak = Weak::clone(&weak);
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if let Some(inner) = weak.upgrade() {
                    EngineClient(inner).on_message(event.data());
                }
            })
        };
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            if let Some(inner) = weak.upgrade() {
                EngineClient(inner).on_crash(event.message());
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        let mut inner = self.0.borrow_mut();
        if let Some(module) = &inner.module {
            let _ = worker.post_message(module);
        }
        inner.ready_gpu = None;
        inner.worker = Some(LiveWorker {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        });
        inner.worker_generation += 1;
        let generation = inner.worker_generation;
        drop(inner);
        self.watch_start(generation);
    }

    fn on_message(&self, data: JsValue) {
        let message = match serde_wasm_bindgen::from_value::<FromWorker>(data) {
            Ok(message) => message,
            Err(error) => {
                web_sys::console::error_1(&format!("unreadable engine message: {error}").into());
                return;
            }
        };
        match message {
            FromWorker::Ready { gpu } => {
                let status = {
                    let mut inner = self.0.borrow_mut();
                    inner.failed_starts = 0;
                    inner.ready_gpu = Some(gpu.clone());
                    inner.status
                };
                status.set(EngineStatus::Ready { gpu });
                self.pump();
            }
            FromWorker::Finished { id, outcome } => {
                self.answer(id, RunReply::Outcome(outcome));
                self.pump();
            }
            FromWorker::CaseFinished { id, outcome } => {
                self.answer(id, RunReply::Case(outcome));
                self.pump();
            }
            FromWorker::Panicked { id, report } => {
                let reason = report.message.clone();
                if let Some(id) = id {
                    self.answer(id, RunReply::Panicked(report));
                }
                // The instance traps right after this message: replace the worker now rather
                // than wait for its error event.
                self.replace_worker("Replacing the engine worker after the panic…", &reason);
            }
            FromWorker::BootFailed(reason) => {
                self.fail(format!("The engine's WebAssembly could not start: {reason}"))
            }
            FromWorker::DeviceLost(reason) => self.on_device_lost(reason),
        }
    }

    fn answer(&self, id: u64, reply: RunReply) {
        let mut inner = self.0.borrow_mut();
        if inner.in_flight.as_ref().is_some_and(|(in_flight, _, _)| *in_flight == id)
            && let Some((_, sender, sent)) = inner.in_flight.take()
        {
            let _ = sender.send((reply, sent));
        }
    }

    fn on_crash(&self, message: String) {
        self.abandon_in_flight(format!(
            "The engine worker stopped without a panic report: {message}"
        ));
        self.replace_worker("Restarting the engine worker…", &message);
    }

    /// Answers the request in flight with `reply_text`.
    fn abandon_in_flight(&self, reply_text: String) {
        let in_flight = self.0.borrow_mut().in_flight.take();
        if let Some((_, sender, sent)) = in_flight {
            let _ = sender.send((RunReply::Crashed(reply_text), sent));
        }
    }

    /// The GPU device is gone: replace the worker (the new one acquires a new device) and run the
    /// interrupted scenario again there, unless a newer one is already waiting.
    fn on_device_lost(&self, reason: String) {
        {
            let mut inner = self.0.borrow_mut();
            if let Some((_, sender, sent)) = inner.in_flight.take() {
                match (sent, inner.queued_scenario.is_some()) {
                    (Some(scenario), false) => inner.queued_scenario = Some((scenario, sender)),
                    (sent, _) => {
                        let reply = RunReply::Crashed(format!("The GPU device was lost ({reason})."));
                        let _ = sender.send((reply, sent));
                    }
                }
            }
        }
        self.replace_worker(
            &format!("The GPU device was lost ({reason}); starting a new engine to acquire another…"),
            &reason,
        );
    }

    /// Starts a new worker after the current one died (`status` says so meanwhile), unless
    /// workers keep dying before they are ready: then the engine is reported as failed instead
    /// of restarting forever.
    fn replace_worker(&self, status_text: &str, reason: &str) {
        let (status, gave_up) = {
            let mut inner = self.0.borrow_mut();
            inner.worker = None; // terminates it
            if inner.ready_gpu.take().is_none() {
                inner.failed_starts += 1;
            }
            (inner.status, inner.failed_starts >= MAX_FAILED_STARTS)
        };
        if gave_up {
            return self.fail(format!("The engine worker failed to start: {reason}"));
        }
        status.set(EngineStatus::Restarting(status_text.to_owned()));
        self.spawn_worker();
    }

    fn fail(&self, reason: String) {
        let (status, senders) = {
            let mut inner = self.0.borrow_mut();
            inner.worker = None;
            let mut senders: Vec<_> = inner.in_flight.take().map(|(_, sender, _)| sender).into_iter().collect();
            senders.extend(inner.queued_scenario.take().map(|(_, sender)| sender));
            senders.extend(inner.queued_cases.drain(..).map(|(_, sender)| sender));
            (inner.status, senders)
        };
        for sender in senders {
            let _ = sender.send((RunReply::Crashed(reason.clone()), None));
        }
        status.set(EngineStatus::Failed(reason));
    }
}

/// Fetches and compiles the engine's wasm once.
async fn compile_engine() -> Result<JsValue, String> {
    let window = web_sys::window().ok_or("no window")?;
    let streaming = WebAssembly::compile_streaming(&window.fetch_with_str(ENGINE_WASM_URL));
    if let Ok(module) = JsFuture::from(streaming).await {
        return Ok(module);
    }
    // Some static hosts serve wasm without `application/wasm`, which streaming compilation
    // refuses: compile from the bytes instead.
    let response: Response = JsFuture::from(window.fetch_with_str(ENGINE_WASM_URL))
        .await
        .map_err(|error| format!("{error:?}"))?
        .unchecked_into();
    if !response.ok() {
        return Err(format!("{ENGINE_WASM_URL}: HTTP {}", response.status()));
    }
    let bytes: Promise = response.array_buffer().map_err(|error| format!("{error:?}"))?;
    let bytes = JsFuture::from(bytes).await.map_err(|error| format!("{error:?}"))?;
    JsFuture::from(WebAssembly::compile(&bytes))
        .await
        .map_err(|error| format!("{error:?}"))
}
