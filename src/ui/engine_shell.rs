//! The browser side of the engine client: carries out what [`Machine`] decides.
//!
//! Every decision (which worker serves, what waits, when to give up) is in
//! [`crate::client::machine`], tested natively; this file only turns its commands into
//! `Worker`s, `postMessage`s, timers and a status signal, and reports what the browser says back
//! as events.
//!
//! Hand-written rather than a worker crate (gloo-worker and friends): each new worker must get
//! the *compiled* `WebAssembly.Module` (so a replacement costs no fetch and no compile), and a
//! worker's `error` event must be told apart from its messages. Both need the raw `Worker`.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::{Rc, Weak};

use futures::channel::oneshot;
use leptos::prelude::{Set, WriteSignal};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, Event as DomEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

use super::engine_loader::{self, LoadProgress};
use crate::client::machine::{
    Command, Event, Machine, Reply, RequestId, SpareState, Status, WorkerId,
};
use crate::model::gallery_case::GalleryCase;
use crate::model::protocol::{self, FromWorker, ToWorker};
use crate::model::scenario::Scenario;
use crate::model::training::{LossPoint, TrainRequest};

/// The worker's module script (copied to `dist/` by trunk).
const BOOTSTRAP_URL: &str = "engine-bootstrap.js";
/// The bootstrap of the engine built with burn's `fusion` feature.
const FUSION_BOOTSTRAP_URL: &str = "engine-bootstrap-fusion.js";

/// Whether the page runs the fusion engine (the loader decided from the link it was opened with).
pub fn fusion_engine() -> bool {
    js_sys::Reflect::get(&js_sys::global(), &"playgroundEngine".into())
        .and_then(|loader| js_sys::Reflect::get(&loader, &"fusion".into()))
        .ok()
        .and_then(|fusion| fusion.as_bool())
        .unwrap_or(false)
}

/// A reply, and the scenario as it was sent (for scenario runs).
type Answer = (Reply, Option<Scenario>);

/// Cheap to clone: every clone drives the same workers.
#[derive(Clone)]
pub struct EngineClient(Rc<Shell>);

/// Receives a training run's losses as they are read back.
pub type ProgressListener = Box<dyn FnMut(&[LossPoint])>;

struct Shell {
    machine: RefCell<Machine>,
    module: RefCell<Option<JsValue>>,
    workers: RefCell<HashMap<WorkerId, Spawned>>,
    waiting: RefCell<HashMap<RequestId, oneshot::Sender<Answer>>>,
    /// Where each training run's losses go as they arrive.
    progress_listeners: RefCell<HashMap<RequestId, ProgressListener>>,
    next_request: Cell<RequestId>,
    status: WriteSignal<Status>,
    spare: WriteSignal<SpareState>,
    progress: WriteSignal<Option<LoadProgress>>,
}

/// A started worker and the callbacks that must live as long as it.
struct Spawned {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(DomEvent)>,
}

impl Drop for Spawned {
    fn drop(&mut self) {
        self.worker.set_onmessage(None);
        self.worker.set_onerror(None);
        self.worker.terminate();
    }
}

impl EngineClient {
    /// Starts loading the engine; `status` and the download `progress` follow along.
    pub fn start(
        status: WriteSignal<Status>,
        spare: WriteSignal<SpareState>,
        progress: WriteSignal<Option<LoadProgress>>,
    ) -> EngineClient {
        status.set(Machine::initial_status());
        let client = EngineClient(Rc::new(Shell {
            machine: RefCell::new(Machine::new()),
            module: RefCell::new(None),
            workers: RefCell::new(HashMap::new()),
            waiting: RefCell::new(HashMap::new()),
            progress_listeners: RefCell::new(HashMap::new()),
            next_request: Cell::new(0),
            status,
            spare,
            progress,
        }));
        client.load_module(false);
        client
    }

    /// Queues `scenario` (replacing any queued scenario) and resolves when it ends, with the
    /// scenario as it was sent (on the CPU when the GPU turned out to be unavailable).
    pub async fn run(&self, scenario: Scenario) -> (Reply, Scenario) {
        let (id, receiver) = self.request();
        self.handle(Event::RunRequested(id, scenario.clone()));
        let (reply, sent) = receiver.await.unwrap_or((Reply::Superseded, None));
        (reply, sent.unwrap_or(scenario))
    }

    /// Queues a gallery snippet and resolves when it ends.
    pub async fn run_case(&self, case: GalleryCase) -> Reply {
        let (id, receiver) = self.request();
        self.handle(Event::CaseRequested(id, case));
        receiver
            .await
            .map(|(reply, _)| reply)
            .unwrap_or(Reply::Superseded)
    }

    /// Starts training; `on_progress` receives the losses as they are read back. Returns the
    /// run's id (to stop it) and its answer.
    pub fn train(
        &self,
        request: TrainRequest,
        on_progress: ProgressListener,
    ) -> (RequestId, impl std::future::Future<Output = Reply> + use<>) {
        let (id, receiver) = self.request();
        self.0
            .progress_listeners
            .borrow_mut()
            .insert(id, on_progress);
        self.handle(Event::TrainRequested(id, request));
        let weak = self.weak();
        let answer = async move {
            let reply = receiver
                .await
                .map(|(reply, _)| reply)
                .unwrap_or(Reply::Superseded);
            if let Some(client) = upgrade(&weak) {
                client.0.progress_listeners.borrow_mut().remove(&id);
            }
            reply
        };
        (id, answer)
    }

    /// Ends training run `id` after its current step.
    pub fn stop_training(&self, id: RequestId) {
        self.handle(Event::StopRequested(id));
    }

    /// Tries again after the engine failed.
    pub fn retry(&self) {
        self.handle(Event::RetryRequested);
        if self.0.machine.borrow().needs_module() {
            self.load_module(true);
        }
    }

    fn request(&self) -> (RequestId, oneshot::Receiver<Answer>) {
        let id = self.0.next_request.get() + 1;
        self.0.next_request.set(id);
        let (sender, receiver) = oneshot::channel();
        self.0.waiting.borrow_mut().insert(id, sender);
        (id, receiver)
    }

    /// Feeds `event` to the machine and carries out its commands.
    fn handle(&self, event: Event) {
        let commands = self.0.machine.borrow_mut().handle(event);
        for command in commands {
            self.execute(command);
        }
    }

    fn execute(&self, command: Command) {
        match command {
            Command::Spawn(id) => match self.spawn(id) {
                Ok(spawned) => {
                    self.0.workers.borrow_mut().insert(id, spawned);
                }
                Err(reason) => self.handle(Event::WorkerError(id, reason)),
            },
            Command::Post(id, message) => self.post(id, &message),
            Command::Terminate(id) => {
                // Dropping it terminates it.
                self.0.workers.borrow_mut().remove(&id);
            }
            Command::StartTimer(timer) => {
                let weak = self.weak();
                wasm_bindgen_futures::spawn_local(async move {
                    gloo_timers::future::TimeoutFuture::new(timer.duration_ms()).await;
                    if let Some(client) = upgrade(&weak) {
                        client.handle(Event::TimerFired(timer));
                    }
                });
            }
            Command::Reply {
                request,
                reply,
                sent,
            } => {
                if let Some(sender) = self.0.waiting.borrow_mut().remove(&request) {
                    let _ = sender.send((reply, sent));
                }
            }
            Command::ShowStatus(status) => self.0.status.set(status),
            Command::ShowSpare(state) => self.0.spare.set(state),
            Command::Progress { request, points } => {
                // Taken out while it runs: the listener may update signals that read the client.
                let listener = self.0.progress_listeners.borrow_mut().remove(&request);
                if let Some(mut listener) = listener {
                    listener(&points);
                    self.0
                        .progress_listeners
                        .borrow_mut()
                        .insert(request, listener);
                }
            }
        }
    }

    fn weak(&self) -> Weak<Shell> {
        Rc::downgrade(&self.0)
    }

    /// Fetches and compiles the engine's wasm (once, or again after a failed load).
    fn load_module(&self, retry: bool) {
        let weak = self.weak();
        let progress = self.0.progress;
        wasm_bindgen_futures::spawn_local(async move {
            let compiled = engine_loader::compiled_module(progress, retry).await;
            let Some(client) = upgrade(&weak) else {
                return;
            };
            match compiled {
                Ok(module) => {
                    *client.0.module.borrow_mut() = Some(module);
                    client.handle(Event::ModuleCompiled);
                }
                Err(reason) => client.handle(Event::ModuleFailed(reason)),
            }
        });
    }

    /// Starts worker `id`; its messages and errors come back as events tagged with its id.
    fn spawn(&self, id: WorkerId) -> Result<Spawned, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let bootstrap = if fusion_engine() {
            FUSION_BOOTSTRAP_URL
        } else {
            BOOTSTRAP_URL
        };
        let worker = match engine_loader::started_worker() {
            Some(worker) => worker,
            None => {
                let worker = Worker::new_with_options(bootstrap, &options)
                    .map_err(|error| format!("The engine worker could not start: {error:?}"))?;
                super::browser::mark("engine-worker-started");
                worker
            }
        };
        let weak = self.weak();
        let on_message = {
            let weak = Weak::clone(&weak);
            Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                if let Some(client) = upgrade(&weak)
                    && let Some(message) = decode(event.data())
                {
                    client.handle(Event::Message(id, message));
                }
            })
        };
        // A script that fails to load fires a plain `Event`; a trap fires an `ErrorEvent`.
        let on_error = Closure::<dyn FnMut(DomEvent)>::new(move |event: DomEvent| {
            let message = event
                .dyn_ref::<ErrorEvent>()
                .map(ErrorEvent::message)
                .filter(|message| !message.is_empty())
                .unwrap_or_else(|| "its script could not be loaded".to_owned());
            if let Some(client) = upgrade(&weak) {
                client.handle(Event::WorkerError(id, message));
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        if let Some(module) = self.0.module.borrow().as_ref() {
            worker
                .post_message(module)
                .map_err(|error| format!("The engine could not be handed over: {error:?}"))?;
        }
        Ok(Spawned {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    fn post(&self, id: WorkerId, message: &ToWorker) {
        let posted = protocol::encode(message).and_then(|bytes| {
            let workers = self.0.workers.borrow();
            let spawned = workers.get(&id).ok_or("the worker is gone")?;
            let bytes = protocol::to_js_bytes(&bytes);
            // Transferred, not copied again: a million input values are 4 MB.
            spawned
                .worker
                .post_message_with_transfer(&bytes, &js_sys::Array::of1(&bytes.buffer()))
                .map_err(|error| format!("{error:?}"))
        });
        if let Err(reason) = posted {
            self.handle(Event::WorkerError(
                id,
                format!("a message could not be sent: {reason}"),
            ));
        }
    }
}

fn upgrade(weak: &Weak<Shell>) -> Option<EngineClient> {
    weak.upgrade().map(EngineClient)
}

/// A worker's message: the JavaScript bootstrap reports a failed instantiation as
/// `{ BootFailed: "…" }`; everything else is postcard bytes from the engine.
fn decode(data: JsValue) -> Option<FromWorker> {
    let boot_failure = js_sys::Reflect::get(&data, &JsValue::from_str("BootFailed"))
        .ok()
        .and_then(|reason| reason.as_string());
    let message = match boot_failure {
        Some(reason) => Ok(FromWorker::BootFailed(reason)),
        // The bytes as they arrived: `Uint8Array::new(&data)` would copy them first.
        None => match data.dyn_ref::<js_sys::Uint8Array>() {
            Some(bytes) => protocol::decode::<FromWorker>(&bytes.to_vec()),
            None => Err("the message is not bytes".to_owned()),
        },
    };
    message
        .map_err(|error| {
            web_sys::console::error_1(&format!("unreadable engine message: {error}").into())
        })
        .ok()
}
