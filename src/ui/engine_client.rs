//! The page's side of the engine worker: spawns it, sends runs, and replaces it when it dies.
//!
//! Hand-written rather than a worker crate (gloo-worker and friends): the page must hand each new
//! worker the *compiled* `WebAssembly.Module` (so a restart after a panic costs no fetch and no
//! compile), and must tell a reported panic from a silent crash. Both need the raw `Worker`.
//!
//! One request is in flight at a time. Scenario runs are latest-wins: a newer one replaces a
//! queued one (whose caller gets [`RunReply::Superseded`]). Gallery snippets queue in order and
//! go first. Requests made while the worker starts or restarts wait for it.
//!
//! Once the worker is ready, a *spare* worker starts beside it and acquires its own WebGPU
//! device. When the current worker dies, the spare takes over at once and a new spare starts in
//! the background: recovering from a panic costs no wasm instantiation and no device
//! initialisation. (Warming the spare's kernels up front was measured too: on a 2-core machine
//! the warm-up competes with the runs it should speed up, and recovery got slower; see
//! BENCHMARKS.md.)

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use futures::channel::oneshot;
use js_sys::{Promise, WebAssembly};
use leptos::prelude::{Set, WriteSignal};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{ErrorEvent, Event, MessageEvent, Response, Worker, WorkerOptions, WorkerType};

use crate::gallery::GalleryCase;
use crate::outcome::{CaseOutcome, Outcome, PanicReport};
use crate::protocol::{self, FromWorker, ToWorker};
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
    /// Ready; `gpu` is the adapter name, or why runs go to the CPU. `note` tells about a
    /// replacement that happened without a visible restart.
    Ready {
        gpu: Result<String, String>,
        note: Option<String>,
    },
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

/// Cheap to clone: every clone drives the same workers.
#[derive(Clone)]
pub struct EngineClient(Rc<RefCell<Inner>>);

struct Inner {
    status: WriteSignal<EngineStatus>,
    module: Option<JsValue>,
    /// The worker that serves requests.
    current: Option<Slot>,
    /// A started worker waiting to replace `current`.
    spare: Option<Slot>,
    /// The request in flight, and the scenario it sent (for scenario runs).
    in_flight: Option<(u64, Sender, Option<Scenario>)>,
    queued_scenario: Option<(Scenario, Sender)>,
    queued_cases: Vec<(GalleryCase, Sender)>,
    next_request: u64,
    next_worker: u64,
    failed_starts: u32,
}

/// A started worker: its id, the callbacks that must live as long as it, and what it said when
/// it became ready.
struct Slot {
    id: u64,
    worker: Worker,
    ready: Option<Result<String, String>>,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(Event)>,
}

impl Drop for Slot {
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
            current: None,
            spare: None,
            in_flight: None,
            queued_scenario: None,
            queued_cases: Vec::new(),
            next_request: 0,
            next_worker: 0,
            failed_starts: 0,
        })));
        let starting = client.clone();
        wasm_bindgen_futures::spawn_local(async move {
            match compile_engine().await {
                Ok(module) => {
                    starting.0.borrow_mut().module = Some(module);
                    starting.start_current();
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
        let replaced = self
            .0
            .borrow_mut()
            .queued_scenario
            .replace((scenario.clone(), sender));
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
        receiver
            .await
            .map(|(reply, _)| reply)
            .unwrap_or(RunReply::Superseded)
    }

    /// Sends the next queued request if the current worker is ready and idle.
    fn pump(&self) {
        let mut inner = self.0.borrow_mut();
        let Some(gpu) = inner.current.as_ref().and_then(|slot| slot.ready.clone()) else {
            return;
        };
        if inner.in_flight.is_some() {
            return;
        }
        inner.next_request += 1;
        let id = inner.next_request;
        let (message, sender) = if !inner.queued_cases.is_empty() {
            let (case, sender) = inner.queued_cases.remove(0);
            (ToWorker::RunCase { id, case }, sender)
        } else if let Some((mut scenario, sender)) = inner.queued_scenario.take() {
            // Without a usable GPU every run goes to the CPU; the caller learns what was sent.
            if gpu.is_err() {
                scenario.backend = BackendChoice::Cpu;
            }
            (ToWorker::Run { id, scenario }, sender)
        } else {
            return;
        };
        let posted = protocol::encode(&message).and_then(|bytes| {
            let slot = inner
                .current
                .as_ref()
                .ok_or_else(|| "no worker".to_owned())?;
            let bytes = js_sys::Uint8Array::from(bytes.as_slice());
            slot.worker
                .post_message(&bytes)
                .map_err(|error| format!("{error:?}"))
        });
        // Encoded: the scenario itself now goes back to the caller (and is kept for a re-run).
        let sent = match message {
            ToWorker::Run { scenario, .. } => Some(scenario),
            ToWorker::RunCase { .. } => None,
        };
        match posted {
            Ok(()) => {
                inner.in_flight = Some((id, sender, sent));
                drop(inner);
                self.watch_run(id);
            }
            Err(reason) => {
                let reply = RunReply::Crashed(format!("The run could not be sent: {reason}"));
                let _ = sender.send((reply, sent));
            }
        }
    }

    /// Calls `check` after `ms`, unless the client is gone by then.
    fn after(&self, ms: u32, check: impl FnOnce(&EngineClient) + 'static) {
        let weak = Rc::downgrade(&self.0);
        wasm_bindgen_futures::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(ms).await;
            if let Some(inner) = weak.upgrade() {
                check(&EngineClient(inner));
            }
        });
    }

    /// Abandons request `id` if it is still unanswered after [`RUN_TIMEOUT_MS`].
    fn watch_run(&self, id: u64) {
        self.after(RUN_TIMEOUT_MS, move |client| {
            let stuck = client
                .0
                .borrow()
                .in_flight
                .as_ref()
                .is_some_and(|(current, _, _)| *current == id);
            if stuck {
                let seconds = RUN_TIMEOUT_MS / 1000;
                client.abandon_in_flight(format!(
                    "The engine did not answer within {seconds} s, so it was stopped and restarted. Run again to retry."
                ));
                client.replace_current(
                    "Restarting the engine after a run that did not answer…",
                    "no answer",
                    Some("A run did not answer in time; the engine was replaced.".to_owned()),
                );
            }
        });
    }

    /// Replaces worker `id` if it is still the current one and not ready after
    /// [`START_TIMEOUT_MS`].
    fn watch_start(&self, id: u64) {
        self.after(START_TIMEOUT_MS, move |client| {
            let stuck = client
                .0
                .borrow()
                .current
                .as_ref()
                .is_some_and(|slot| slot.id == id && slot.ready.is_none());
            if stuck {
                let seconds = START_TIMEOUT_MS / 1000;
                client.replace_current(
                    "Restarting the engine, which did not start…",
                    &format!("it did not start within {seconds} s"),
                    None,
                );
            }
        });
    }

    /// Starts a worker; its messages and errors come back tagged with its id.
    fn spawn(&self) -> Result<Slot, String> {
        let id = {
            let mut inner = self.0.borrow_mut();
            inner.next_worker += 1;
            inner.next_worker
        };
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(BOOTSTRAP_URL, &options)
            .map_err(|error| format!("The engine worker could not start: {error:?}"))?;
        let weak = Rc::downgrade(&self.0);
        let on_message = {
            let weak = Weak::clone(&weak);
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if let Some(inner) = weak.upgrade() {
                    EngineClient(inner).on_message(id, event.data());
                }
            })
        };
        // A script that fails to load fires a plain `Event`; a trap fires an `ErrorEvent`.
        let on_error = Closure::<dyn FnMut(Event)>::new(move |event: Event| {
            let message = event
                .dyn_ref::<ErrorEvent>()
                .map(ErrorEvent::message)
                .filter(|message| !message.is_empty())
                .unwrap_or_else(|| "its script could not be loaded".to_owned());
            if let Some(inner) = weak.upgrade() {
                EngineClient(inner).on_crash(id, message);
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        if let Some(module) = &self.0.borrow().module {
            let _ = worker.post_message(module);
        }
        Ok(Slot {
            id,
            worker,
            ready: None,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    fn start_current(&self) {
        match self.spawn() {
            Ok(slot) => {
                let id = slot.id;
                self.0.borrow_mut().current = Some(slot);
                self.watch_start(id);
            }
            Err(reason) => self.fail(reason),
        }
    }

    /// Starts a spare worker when there is none.
    fn ensure_spare(&self) {
        if self.0.borrow().spare.is_some() {
            return;
        }
        if let Ok(slot) = self.spawn() {
            self.0.borrow_mut().spare = Some(slot);
        }
    }

    fn is_current(&self, id: u64) -> bool {
        self.0
            .borrow()
            .current
            .as_ref()
            .is_some_and(|slot| slot.id == id)
    }

    fn on_message(&self, worker: u64, data: JsValue) {
        // The JavaScript bootstrap reports a failed instantiation as `{ BootFailed: "…" }`;
        // everything else is postcard bytes from the engine.
        let boot_failure = js_sys::Reflect::get(&data, &JsValue::from_str("BootFailed"))
            .ok()
            .and_then(|reason| reason.as_string());
        let message = match boot_failure {
            Some(reason) => Ok(FromWorker::BootFailed(reason)),
            None => protocol::decode::<FromWorker>(&js_sys::Uint8Array::new(&data).to_vec()),
        };
        let message = match message {
            Ok(message) => message,
            Err(error) => {
                web_sys::console::error_1(&format!("unreadable engine message: {error}").into());
                return;
            }
        };
        if !self.is_current(worker) {
            return self.on_spare_message(worker, message);
        }
        match message {
            FromWorker::Ready { gpu } => {
                let status = {
                    let mut inner = self.0.borrow_mut();
                    inner.failed_starts = 0;
                    if let Some(slot) = inner.current.as_mut() {
                        slot.ready = Some(gpu.clone());
                    }
                    inner.status
                };
                status.set(EngineStatus::Ready { gpu, note: None });
                self.pump();
                self.ensure_spare();
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
                self.replace_current(
                    "Replacing the engine worker after the panic…",
                    &reason,
                    None,
                );
            }
            FromWorker::BootFailed(reason) => self.fail(format!(
                "The engine's WebAssembly could not start: {reason}"
            )),
            FromWorker::DeviceLost(reason) => self.on_device_lost(reason),
        }
    }

    /// The spare only ever reports that it is ready, or that it died.
    fn on_spare_message(&self, worker: u64, message: FromWorker) {
        let mut inner = self.0.borrow_mut();
        let Some(spare) = inner.spare.as_mut().filter(|slot| slot.id == worker) else {
            return;
        };
        match message {
            FromWorker::Ready { gpu } => spare.ready = Some(gpu),
            // Dropping it terminates it; the next promotion starts a fresh one.
            _ => inner.spare = None,
        }
    }

    fn answer(&self, id: u64, reply: RunReply) {
        let mut inner = self.0.borrow_mut();
        if inner
            .in_flight
            .as_ref()
            .is_some_and(|(in_flight, _, _)| *in_flight == id)
            && let Some((_, sender, sent)) = inner.in_flight.take()
        {
            let _ = sender.send((reply, sent));
        }
    }

    fn on_crash(&self, worker: u64, message: String) {
        if !self.is_current(worker) {
            let mut inner = self.0.borrow_mut();
            if inner.spare.as_ref().is_some_and(|slot| slot.id == worker) {
                inner.spare = None;
            }
            return;
        }
        self.abandon_in_flight(format!(
            "The engine worker stopped without a panic report: {message}"
        ));
        self.replace_current(
            "Restarting the engine worker…",
            &message,
            Some(format!(
                "The engine worker stopped ({message}) and was replaced."
            )),
        );
    }

    /// Answers the request in flight with `reply_text`.
    fn abandon_in_flight(&self, reply_text: String) {
        let in_flight = self.0.borrow_mut().in_flight.take();
        if let Some((_, sender, sent)) = in_flight {
            let _ = sender.send((RunReply::Crashed(reply_text), sent));
        }
    }

    /// The GPU device is gone: replace the worker (its replacement has a device of its own) and
    /// run the interrupted scenario again there, unless a newer one is already waiting.
    fn on_device_lost(&self, reason: String) {
        {
            let mut inner = self.0.borrow_mut();
            if let Some((_, sender, sent)) = inner.in_flight.take() {
                match (sent, inner.queued_scenario.is_some()) {
                    (Some(scenario), false) => inner.queued_scenario = Some((scenario, sender)),
                    (sent, _) => {
                        let reply =
                            RunReply::Crashed(format!("The GPU device was lost ({reason})."));
                        let _ = sender.send((reply, sent));
                    }
                }
            }
        }
        let text = format!(
            "The GPU device was lost ({reason}); a new engine with its own device took over."
        );
        self.replace_current(&text, &reason, Some(text.clone()));
    }

    /// Replaces the current worker after it died: the spare takes over (at once when it is
    /// ready), or a new worker starts. Workers that keep dying before they are ready make the
    /// engine fail instead of restarting forever. `status_text` shows while nothing is ready;
    /// `note` stays on the ready banner afterwards.
    fn replace_current(&self, status_text: &str, reason: &str, note: Option<String>) {
        let (status, gave_up, promoted) = {
            let mut inner = self.0.borrow_mut();
            let was_ready = inner
                .current
                .take()
                .is_some_and(|slot| slot.ready.is_some());
            if !was_ready {
                inner.failed_starts += 1;
            }
            let gave_up = inner.failed_starts >= MAX_FAILED_STARTS;
            let promoted = if gave_up { None } else { inner.spare.take() };
            (inner.status, gave_up, promoted)
        };
        if gave_up {
            return self.fail(format!("The engine worker failed to start: {reason}"));
        }
        match promoted {
            Some(slot) => {
                let ready = slot.ready.clone();
                let id = slot.id;
                self.0.borrow_mut().current = Some(slot);
                match ready {
                    Some(gpu) => {
                        status.set(EngineStatus::Ready { gpu, note });
                        self.pump();
                        self.ensure_spare();
                    }
                    None => {
                        status.set(EngineStatus::Restarting(status_text.to_owned()));
                        self.watch_start(id);
                    }
                }
            }
            None => {
                status.set(EngineStatus::Restarting(status_text.to_owned()));
                self.start_current();
            }
        }
    }

    fn fail(&self, reason: String) {
        let (status, senders) = {
            let mut inner = self.0.borrow_mut();
            inner.current = None;
            inner.spare = None;
            let mut senders: Vec<_> = inner
                .in_flight
                .take()
                .map(|(_, sender, _)| sender)
                .into_iter()
                .collect();
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
    let bytes: Promise = response
        .array_buffer()
        .map_err(|error| format!("{error:?}"))?;
    let bytes = JsFuture::from(bytes)
        .await
        .map_err(|error| format!("{error:?}"))?;
    JsFuture::from(WebAssembly::compile(&bytes))
        .await
        .map_err(|error| format!("{error:?}"))
}
