//! The page's "Write your own declaration" box, before the editor is loaded: its heading, and
//! the loading of the editor's own wasm (bin `editor-ui`, through `editor-bootstrap.js`) when
//! the box first opens, or when a link with the editor's text opens it. The editor then mounts
//! inside the box ([`super::editor_view::mount`]) over the page's link
//! ([`super::editor_link::page_link`]). A visit that never opens the box downloads none of it.

use js_sys::{Object, Reflect};
use leptos::html::{Details, Div};
use leptos::prelude::*;
use wasm_bindgen::prelude::*;

use super::browser::details_open;
use super::editor_link::page_link;
use super::state::use_playground;

/// The bootstrap that loads the editor's wasm and mounts it (src/ui/editor-bootstrap.js).
const BOOTSTRAP_URL: &str = "./editor-bootstrap.js";
/// Where the bootstrap finds the box, the page's link and the page's callbacks.
const HANDOFF: &str = "playgroundEditor";

/// Where the editor's loading stands.
#[derive(Clone, Debug, PartialEq)]
enum EditorLoad {
    /// The box was never opened.
    Idle,
    /// Its wasm is on its way (attempt `n`, counted from 1).
    Fetching(u32),
    /// The editor is mounted in the box.
    Mounted,
    /// The editor could not load; the next opening tries again.
    Failed(u32, String),
}

/// The box, and the editor's loading.
#[component]
pub fn EditorPanel() -> impl IntoView {
    let playground = use_playground();
    let details = NodeRef::<Details>::new();
    let host = NodeRef::<Div>::new();
    let loading = RwSignal::new(EditorLoad::Idle);
    // Made once, here (its state follows the form); the editor is handed it when it loads.
    let link = StoredValue::new_local(page_link(playground));

    let load = move || {
        let attempt = match loading.get_untracked() {
            EditorLoad::Idle => 1,
            EditorLoad::Failed(attempt, _) => attempt + 1,
            EditorLoad::Fetching(_) | EditorLoad::Mounted => return,
        };
        let Some(host) = host.get_untracked() else {
            return;
        };
        loading.set(EditorLoad::Fetching(attempt));
        let handoff = Object::new();
        let failed = Closure::<dyn Fn(String)>::new(move |reason: String| {
            loading.set(EditorLoad::Failed(attempt, reason));
        })
        .into_js_value();
        let started =
            Closure::<dyn Fn()>::new(move || loading.set(EditorLoad::Mounted)).into_js_value();
        for (name, value) in [
            ("host", JsValue::from(host)),
            ("link", link.get_value().into()),
            ("started", started),
            ("failed", failed.clone()),
        ] {
            let _ = Reflect::set(&handoff, &JsValue::from_str(name), &value);
        }
        let _ = Reflect::set(&window(), &JsValue::from_str(HANDOFF), &handoff);
        // A module script: evaluated once per URL, so a retry asks with a fresh one.
        let Ok(script) = document().create_element("script") else {
            return;
        };
        let _ = script.set_attribute("type", "module");
        let _ = script.set_attribute("src", &format!("{BOOTSTRAP_URL}?attempt={attempt}"));
        let on_error = Closure::<dyn Fn()>::new(move || {
            loading.set(EditorLoad::Failed(
                attempt,
                "its script did not load".to_owned(),
            ));
        })
        .into_js_value();
        let _ = script.add_event_listener_with_callback("error", on_error.unchecked_ref());
        if let Some(head) = document().head() {
            let _ = head.append_child(&script);
        }
    };
    let on_toggle = move |event: web_sys::Event| {
        if details_open(&event) {
            load();
        }
    };
    // A link with the editor's text opens the box.
    Effect::new(move |_| {
        if let Some(details) = details.get()
            && playground.form.with_untracked(|form| form.editor.is_some())
        {
            details.set_open(true);
            load();
        }
    });
    let status = move || match loading.get() {
        EditorLoad::Idle | EditorLoad::Mounted => String::new(),
        EditorLoad::Fetching(_) => {
            "Loading the editor (its own wasm, fetched the first time this box opens)…".to_owned()
        }
        EditorLoad::Failed(_, reason) => {
            format!("The editor did not load ({reason}). Close and open the box to try again.")
        }
    };

    view! {
        <section class="panel editor-panel" aria-labelledby="editor-heading">
            <details id="editor" node_ref=details on:toggle=on_toggle>
                <summary>
                    <h2 id="editor-heading">"Write your own declaration"</h2>
                </summary>
                <p class="run-status" role="status" data-testid="editor-loading">{status}</p>
                <div class="editor-host" node_ref=host></div>
            </details>
        </section>
    }
}
