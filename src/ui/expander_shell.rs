//! The expander worker (burn's macro code compiled to wasm, `crates/macro-expander`), as the
//! editor uses it: started at the first request, so a visit that never opens the editor never
//! downloads it; one answer per request id; a worker that crashed (its wasm trapped, or its
//! script did not load) replaced at the next request.
//!
//! Hand-written over `web_sys::Worker` as the engine's shell is: the messages are two, and a
//! worker-plumbing crate would bring its own encoding beside the postcard one both sides share.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Array, Object, Reflect, Uint8Array};
use macro_expander::Expansion;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;
use web_sys::{ErrorEvent, MessageEvent, Worker, WorkerOptions, WorkerType};

/// The worker's bootstrap (crates/macro-expander/worker/), copied into the build by trunk.
const BOOTSTRAP_URL: &str = "./expander-bootstrap.js";

/// What the worker answered.
pub enum Answer {
    /// The expansions of request `id`'s texts, in order: each text's, one per version of burn's
    /// macro code in `MacroVersion::ALL`'s order.
    Expanded {
        id: u64,
        expansions: Vec<Vec<Expansion>>,
    },
    /// The worker stopped while it worked on request `id` (`None`: its script failed before any
    /// request), and why. It has been let go; the next request starts another.
    Crashed { id: Option<u64>, reason: String },
    /// The license texts of the compiled macro code.
    Licenses(String),
}

struct Running {
    worker: Worker,
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// The editor's handle on the expander worker.
pub struct ExpanderShell {
    running: RefCell<Option<Running>>,
    next_id: Cell<u64>,
    on_answer: Box<dyn Fn(Answer)>,
}

impl ExpanderShell {
    /// A shell that calls `on_answer` with every answer; no worker runs until the first request.
    pub fn new(on_answer: impl Fn(Answer) + 'static) -> Rc<ExpanderShell> {
        Rc::new(ExpanderShell {
            running: RefCell::new(None),
            next_id: Cell::new(1),
            on_answer: Box::new(on_answer),
        })
    }

    /// Asks for the expansion of each of `texts`; returns the request's id.
    pub fn expand(self: &Rc<Self>, texts: &[&str]) -> u64 {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        let message = Object::new();
        let texts: Array = texts.iter().map(|text| JsValue::from_str(text)).collect();
        let _ = Reflect::set(&message, &"id".into(), &JsValue::from_f64(id as f64));
        let _ = Reflect::set(&message, &"texts".into(), &texts);
        self.post(&message, Some(id));
        id
    }

    /// Asks for the license texts of the compiled macro code.
    pub fn licenses(self: &Rc<Self>) {
        let message = Object::new();
        let _ = Reflect::set(&message, &"licenses".into(), &JsValue::TRUE);
        self.post(&message, None);
    }

    fn post(self: &Rc<Self>, message: &JsValue, id: Option<u64>) {
        if self.running.borrow().is_none() {
            match self.spawn() {
                Ok(running) => *self.running.borrow_mut() = Some(running),
                Err(reason) => return (self.on_answer)(Answer::Crashed { id, reason }),
            }
        }
        if let Some(running) = self.running.borrow().as_ref()
            && let Err(error) = running.worker.post_message(message)
        {
            let reason = format!("the message could not be sent: {error:?}");
            // Let go after the borrow ends.
            let shell = Rc::clone(self);
            wasm_bindgen_futures::spawn_local(async move { shell.crashed(id, reason) });
        }
    }

    /// Lets the worker go and reports why.
    fn crashed(&self, id: Option<u64>, reason: String) {
        if let Some(running) = self.running.borrow_mut().take() {
            running.worker.terminate();
        }
        (self.on_answer)(Answer::Crashed { id, reason });
    }

    fn spawn(self: &Rc<Self>) -> Result<Running, String> {
        let options = WorkerOptions::new();
        options.set_type(WorkerType::Module);
        let worker = Worker::new_with_options(BOOTSTRAP_URL, &options)
            .map_err(|error| format!("the expander's worker could not start: {error:?}"))?;
        let weak = Rc::downgrade(self);
        let on_message = Closure::<dyn FnMut(MessageEvent)>::new({
            let weak = weak.clone();
            move |event: MessageEvent| {
                let Some(shell) = weak.upgrade() else { return };
                shell.handle(event.data());
            }
        });
        let on_error = Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
            event.prevent_default();
            if let Some(shell) = weak.upgrade() {
                let reason = match event.message() {
                    message if message.is_empty() => "its script did not load".to_owned(),
                    message => message,
                };
                shell.crashed(None, reason);
            }
        });
        worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
        worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
        Ok(Running {
            worker,
            _on_message: on_message,
            _on_error: on_error,
        })
    }

    fn handle(&self, data: JsValue) {
        let get = |key: &str| Reflect::get(&data, &key.into()).unwrap_or(JsValue::UNDEFINED);
        if let Some(licenses) = get("licenses").as_string() {
            return (self.on_answer)(Answer::Licenses(licenses));
        }
        let id = get("id").as_f64().map(|id| id as u64);
        if let Some(reason) = get("crashed").as_string() {
            return self.crashed(id, reason);
        }
        let Some(id) = id else { return };
        let answers: Option<Vec<Vec<Expansion>>> =
            get("answers").dyn_into::<Array>().ok().and_then(|answers| {
                answers
                    .iter()
                    .map(|answer| {
                        answer
                            .dyn_ref::<Uint8Array>()
                            .and_then(|bytes| macro_expander::protocol::decode(&bytes.to_vec()))
                    })
                    .collect()
            });
        match answers {
            Some(expansions) => (self.on_answer)(Answer::Expanded { id, expansions }),
            None => self.crashed(Some(id), "its answer could not be read".to_owned()),
        }
    }
}
