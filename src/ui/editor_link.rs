//! The page ↔ editor link. "Write your own declaration" is its own wasm (bin `editor-ui`, the
//! components of [`super::editor_view`] and what they call), fetched when its box first opens,
//! so a visit that never opens it downloads none of it. The page hands the editor a plain JS
//! object, its [`page_link`]; the editor reads the page's state through it and asks the page to
//! act (the link's text, a catalog line chosen, a run), and the page tells it when its state
//! changed. Both sides are this crate, so the state crosses as postcard bytes of
//! [`EditorState`] and [`Scenario`], as the engine's messages do.
//!
//! Hand-written over `js_sys`: the link is eight functions on one object, and two wasm instances
//! share nothing else.

use js_sys::{Function, Object, Reflect, Uint8Array};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use super::state::{Change, Playground};
use super::url::{self, HistoryMode};
use crate::model::scenario::{Declaration, OpKind, Scenario};
use crate::teach::form::Form;

/// What the editor reads of the page's form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EditorState {
    /// The scenario's op and catalog line.
    pub op: OpKind,
    pub declaration: Declaration,
    /// Whether the page runs the engine built with burn's fusion.
    pub fusion: bool,
    /// Whether the editor's text is too long for the page's link. (The text itself is not
    /// part of the state: the editor writes it, and reads the link's once, with
    /// [`EditorHost::linked_text`].)
    pub omits_editor: bool,
}

impl EditorState {
    /// The editor's part of `form`.
    pub fn of(form: &Form) -> EditorState {
        EditorState {
            op: form.op,
            declaration: form.declaration,
            fusion: form.fusion,
            omits_editor: form.link_omits_editor(),
        }
    }
}

fn bytes_of(value: &impl Serialize) -> Uint8Array {
    // Plain owned data: encoding into a Vec cannot fail.
    crate::model::protocol::to_js_bytes(&postcard::to_allocvec(value).unwrap_or_default())
}

fn set(object: &Object, name: &str, function: JsValue) {
    // Setting a property of a plain object cannot fail.
    let _ = Reflect::set(object, &JsValue::from_str(name), &function);
}

/// The page's side: the object the editor is mounted with. `state()`, `text()` (the editor's
/// text the link carried) and `scenario()` answer postcard bytes; `setText(text)`, `choose(op, line)`, `runAgain()`, `runWithFusion(op, line)`
/// act (an op and a line by their index in `OpKind::ALL` and `Declaration::ALL`);
/// `subscribe(callback)` has the page call `callback()` whenever [`EditorState`] changes.
pub fn page_link(playground: Playground) -> Object {
    let link = Object::new();
    let state = Memo::new(move |_| playground.form.with(EditorState::of));
    let subscriber = StoredValue::new_local(None::<Function>);
    Effect::new(move |_| {
        state.track();
        if let Some(callback) = subscriber.get_value() {
            let _ = callback.call0(&JsValue::NULL);
        }
    });
    let line = |op: usize, line: usize| Some((*OpKind::ALL.get(op)?, *Declaration::ALL.get(line)?));
    // The page lives as long as the tab: its closures are handed to JS for good.
    set(
        &link,
        "state",
        Closure::<dyn Fn() -> Uint8Array>::new(move || bytes_of(&state.get_untracked()))
            .into_js_value(),
    );
    set(
        &link,
        "text",
        Closure::<dyn Fn() -> Uint8Array>::new(move || {
            bytes_of(&playground.form.with_untracked(|form| form.editor.clone()))
        })
        .into_js_value(),
    );
    set(
        &link,
        "scenario",
        Closure::<dyn Fn() -> Uint8Array>::new(move || {
            let scenario: Option<Scenario> = playground
                .form
                .with_untracked(|form| playground.parse_cache.scenario(form).ok());
            bytes_of(&scenario)
        })
        .into_js_value(),
    );
    set(
        &link,
        "setText",
        Closure::<dyn Fn(String)>::new(move |text: String| {
            playground.form.update(|form| form.editor = Some(text));
            playground
                .form
                .with_untracked(|form| url::write(form, HistoryMode::Replace));
        })
        .into_js_value(),
    );
    set(
        &link,
        "choose",
        Closure::<dyn Fn(usize, usize)>::new(move |op, declaration| {
            if let Some((op, declaration)) = line(op, declaration) {
                playground.edit(Change::Toggle, |form| {
                    form.op = op;
                    form.declaration = declaration;
                });
            }
        })
        .into_js_value(),
    );
    set(
        &link,
        "runAgain",
        Closure::<dyn Fn()>::new(move || playground.schedule_run(0)).into_js_value(),
    );
    set(
        &link,
        "runWithFusion",
        Closure::<dyn Fn(usize, usize)>::new(move |op, declaration| {
            if let Some((op, declaration)) = line(op, declaration) {
                let mut next = playground.form.get_untracked();
                next.op = op;
                next.declaration = declaration;
                next.fusion = true;
                url::reload_with(&next);
            }
        })
        .into_js_value(),
    );
    set(
        &link,
        "subscribe",
        Closure::<dyn Fn(Function)>::new(move |callback: Function| {
            subscriber.set_value(Some(callback));
        })
        .into_js_value(),
    );
    link
}

/// The editor's side: the page's link, and the page's state as last read.
#[derive(Clone, Copy)]
pub struct EditorHost {
    link: StoredValue<JsValue, LocalStorage>,
    /// The page's state, read again whenever the page says it changed.
    pub state: RwSignal<EditorState>,
}

impl EditorHost {
    /// The host over `link` (from [`page_link`]), subscribed to the page's changes.
    pub fn new(link: JsValue) -> EditorHost {
        let host = EditorHost {
            link: StoredValue::new_local(link),
            state: RwSignal::new(EditorState::of(&Form::default())),
        };
        host.read_state();
        let on_change = Closure::<dyn Fn()>::new(move || host.read_state()).into_js_value();
        host.call("subscribe", &[on_change]);
        host
    }

    fn call(&self, name: &str, arguments: &[JsValue]) -> JsValue {
        let link = self.link.get_value();
        let Some(function) = Reflect::get(&link, &JsValue::from_str(name))
            .ok()
            .and_then(|function| function.dyn_into::<Function>().ok())
        else {
            return JsValue::UNDEFINED;
        };
        let arguments: js_sys::Array = arguments.iter().collect();
        function
            .apply(&link, &arguments)
            .unwrap_or(JsValue::UNDEFINED)
    }

    fn read<T: for<'de> Deserialize<'de>>(&self, name: &str) -> Option<T> {
        let bytes = self.call(name, &[]).dyn_into::<Uint8Array>().ok()?.to_vec();
        postcard::from_bytes(&bytes).ok()
    }

    fn read_state(&self) {
        if let Some(state) = self.read::<EditorState>("state") {
            self.state.set(state);
        }
    }

    /// The editor's text the page's link (or the tab's reload) carried, if any.
    pub fn linked_text(&self) -> Option<String> {
        self.read::<Option<String>>("text").flatten()
    }

    /// The scenario the page would run now, when its fields parse.
    pub fn scenario(&self) -> Option<Scenario> {
        self.read::<Option<Scenario>>("scenario").flatten()
    }

    /// Puts the editor's text into the page's form and link.
    pub fn set_text(&self, text: &str) {
        self.call("setText", &[JsValue::from_str(text)]);
    }

    fn indices(op: OpKind, declaration: Declaration) -> [JsValue; 2] {
        let op = OpKind::ALL.iter().position(|each| *each == op);
        let line = Declaration::ALL
            .iter()
            .position(|each| *each == declaration);
        [op, line].map(|index| JsValue::from(index.unwrap_or(usize::MAX) as u32))
    }

    /// Selects `declaration` of `op` in the page's scenario, which runs it.
    pub fn choose(&self, op: OpKind, declaration: Declaration) {
        self.call("choose", &Self::indices(op, declaration));
    }

    /// Runs the page's scenario again.
    pub fn run_again(&self) {
        self.call("runAgain", &[]);
    }

    /// Loads the engine built with burn's fusion, on `declaration` of `op`.
    pub fn run_with_fusion(&self, op: OpKind, declaration: Declaration) {
        self.call("runWithFusion", &Self::indices(op, declaration));
    }
}

/// The editor's host, provided by the editor's mount.
pub fn use_editor_host() -> EditorHost {
    expect_context::<EditorHost>()
}
