//! The page: a Leptos app that edits a [`Form`](crate::form::Form), keeps it in the URL, and runs it in the engine
//! worker through [`EngineClient`].
//!
//! - [`controls`]: the scenario's controls.
//! - [`parse_cache`]: the text fields parsed once per edit, not once per run.
//! - [`outcome_view`]: the last run's result or panic, with its explanation and fixes.
//! - [`routing_view`]: the generated routing, with the arm the last run took highlighted.
//! - [`gallery_view`]: the related-errors gallery.
//! - [`engine_client`]: spawning, feeding and replacing the engine worker.
//! - [`url`]: the form in the address bar.
//! - [`theme`]: light/dark.

pub mod controls;
pub mod engine_client;
pub mod gallery_view;
pub mod outcome_view;
pub mod parse_cache;
pub mod routing_view;
pub mod theme;
pub mod url;

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::*;

use crate::explain::FixAction;
use crate::form::{Form, UrlNotice};
use crate::outcome::Outcome;
use crate::route_view::{Highlight, Observed, locate};
use controls::{Change, Controls};
use engine_client::{EngineClient, EngineStatus, RunReply};
use gallery_view::GalleryView;
use outcome_view::{LastRun, OutcomeView};
use parse_cache::ParseCache;
use routing_view::RoutingView;
use theme::ThemeSwitch;
use url::HistoryMode;

/// Pause after typing before a re-run, in milliseconds.
const TYPING_DEBOUNCE_MS: u32 = 300;

/// Mounts the app on `<body>`.
pub fn mount() {
    leptos::mount::mount_to_body(App);
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|window| window.performance())
        .map(|performance| performance.now())
        .unwrap_or(0.0)
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let (initial, notices) = url::read();
    let form = RwSignal::new(initial);
    let parse_cache = form.with_untracked(ParseCache::new);
    let url_notices = RwSignal::new(notices);
    let text_revision = RwSignal::new(0u64);
    let (status, set_status) = signal(EngineStatus::Loading);
    let client = StoredValue::new_local(EngineClient::start(set_status));
    let last_run = RwSignal::new(None::<LastRun>);
    // The newest requested run, and whether it is still waiting for its answer.
    let latest = StoredValue::new(0u64);
    let pending = RwSignal::new(false);
    // Runs whose outcome was painted: exposed as `data-runs` for tests and benchmarks.
    let runs_shown = RwSignal::new(0u64);

    let gpu_available = Signal::derive(move || match status.get() {
        EngineStatus::Ready { gpu, .. } => Some(gpu.is_ok()),
        EngineStatus::Failed(_) => Some(false),
        _ => None,
    });

    // Runs the form as it is now, after `delay_ms`, unless a newer run is requested meanwhile.
    let schedule_run = move |delay_ms: u32| {
        let generation = latest.get_value() + 1;
        latest.set_value(generation);
        let Ok(scenario) = form.with_untracked(|form| parse_cache.scenario(form)) else {
            // The fields show what is wrong; nothing to run.
            pending.set(false);
            return;
        };
        let param_text = form.with_untracked(|form| form.texts().param.clone());
        pending.set(true);
        leptos::task::spawn_local(async move {
            if delay_ms > 0 {
                gloo_timers::future::TimeoutFuture::new(delay_ms).await;
                if latest.get_value() != generation {
                    return;
                }
            }
            let started = now_ms();
            let (reply, scenario) = client.get_value().run(scenario).await;
            if reply == RunReply::Superseded || latest.get_value() != generation {
                return;
            }
            pending.set(false);
            runs_shown.update(|runs| *runs += 1);
            last_run.set(Some(LastRun {
                scenario,
                reply,
                round_trip_ms: now_ms() - started,
                param_text,
            }));
        });
    };

    let on_change = Callback::new(move |change: Change| {
        let mode = match change {
            Change::Toggle => HistoryMode::Push,
            Change::Typing => HistoryMode::Replace,
        };
        form.with_untracked(|form| url::write(form, mode));
        url_notices.set(Vec::new());
        schedule_run(match change {
            Change::Toggle => 0,
            Change::Typing => TYPING_DEBOUNCE_MS,
        });
    });
    let on_run = Callback::new(move |()| schedule_run(0));
    // A whole new form (a fix, a gallery card): rewrite the fields, record it, run it.
    let load_form = move |loaded: Form| {
        form.set(loaded);
        text_revision.update(|revision| *revision += 1);
        on_change.run(Change::Toggle);
    };
    let on_fix = Callback::new(move |action: FixAction| {
        let mut fixed = form.get_untracked();
        action.apply(&mut fixed);
        load_form(fixed);
    });
    let on_load_card = Callback::new(move |loaded: Form| {
        load_form(loaded);
        if let Some(outcome) = web_sys::window()
            .and_then(|window| window.document())
            .and_then(|document| document.get_element_by_id("outcome-heading"))
        {
            outcome.scroll_into_view();
        }
    });

    // The arm to highlight: only when the last run is of the op and declaration shown.
    // Memos: typing changes the form but neither of these, so the routing view is left alone.
    let shown_op = Memo::new(move |_| form.with(|form| form.op));
    let shown_declaration = Memo::new(move |_| form.with(|form| form.declaration));
    let highlight = Memo::new(move |_| -> Option<Highlight> {
        let (op, declaration) = (shown_op.get(), shown_declaration.get());
        last_run.with(|run| {
            let run = run.as_ref()?;
            if run.scenario.args.kind() != op || run.scenario.declaration != declaration {
                return None;
            }
            let observed = match &run.reply {
                RunReply::Outcome(Outcome::Completed(completed)) => Observed::Ran(completed.route),
                RunReply::Outcome(Outcome::Panicked(report)) | RunReply::Panicked(report) => {
                    Observed::from_panic(&report.message)?
                }
                _ => return None,
            };
            let source = crate::expanded::source(op, declaration)?;
            locate(source, run.scenario.backend, observed)
        })
    });

    // Back/forward: load the form from the URL and run it.
    let on_pop_state = Closure::<dyn FnMut(web_sys::PopStateEvent)>::new(move |_| {
        let (restored, notices) = url::read();
        form.set(restored);
        url_notices.set(notices);
        text_revision.update(|revision| *revision += 1);
        schedule_run(0);
    });
    // Ctrl/Cmd + Enter runs from anywhere on the page.
    let on_key =
        Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |event: web_sys::KeyboardEvent| {
            if event.key() == "Enter" && (event.ctrl_key() || event.meta_key()) {
                event.prevent_default();
                schedule_run(0);
            }
        });
    if let Some(window) = web_sys::window() {
        let _ = window
            .add_event_listener_with_callback("popstate", on_pop_state.as_ref().unchecked_ref());
        let _ = window.add_event_listener_with_callback("keydown", on_key.as_ref().unchecked_ref());
    }
    // The page lives as long as the window: the listeners are never removed.
    on_pop_state.forget();
    on_key.forget();

    // Canonical URL for what is shown, then the first run.
    form.with_untracked(|form| url::write(form, HistoryMode::Replace));
    schedule_run(0);

    view! {
        <header class="page-header">
            <div>
                <h1>"Burn Extension Playground"</h1>
                <p class="tagline">
                    "Runs the routing that burn 0.22.1's " <code>"#[backend_extension]"</code>
                    " generates for custom ops — live, in your browser — and shows what it does when an op meets a training loop."
                </p>
            </div>
            <ThemeSwitch/>
        </header>
        <EngineBanner status/>
        <UrlNotices notices=url_notices/>
        <main class="layout">
            <section class="panel" aria-labelledby="scenario-heading">
                <h2 id="scenario-heading">"Scenario"</h2>
                <Controls form parse_cache text_revision gpu_available on_change on_run/>
            </section>
            <section
                class="panel"
                aria-labelledby="outcome-heading"
                aria-live="polite"
                aria-busy=move || pending.get().to_string()
                data-runs=move || runs_shown.get()
            >
                <h2 id="outcome-heading">"Outcome"</h2>
                <p class="run-status" data-testid="run-status">
                    {move || if pending.get() { "Running…" } else { "" }}
                </p>
                {move || last_run.get().map(|run| view! { <OutcomeView run on_fix/> })}
            </section>
        </main>
        <div class="wide">
            <RoutingView
                op=shown_op.into()
                declaration=shown_declaration.into()
                highlight=highlight.into()
            />
            <GalleryView form client on_load=on_load_card/>
        </div>
        <footer class="page-footer">
            <p>
                "Every message on this page comes from a real panic caught in the engine's Web Worker; the worker is replaced after each one. "
                "Share the exact scenario with the page's URL."
            </p>
        </footer>
    }
}

/// The engine's state: loading, which backend runs, restarts, failure.
#[component]
fn EngineBanner(status: ReadSignal<EngineStatus>) -> impl IntoView {
    move || {
        match status.get() {
        EngineStatus::Loading => view! {
            <p class="banner banner-info" data-testid="engine-status" role="status">
                <span class="spinner" aria-hidden="true"></span>
                "Loading the engine: downloading and compiling burn's WebAssembly, then starting WebGPU…"
            </p>
        }
        .into_any(),
        EngineStatus::Ready { gpu: Ok(adapter), note } => view! {
            <p class="banner banner-ok" data-testid="engine-status" role="status">
                "Engine ready on WebGPU: " <strong>{adapter}</strong>
                {note.map(|note| view! { " " <span class="banner-note">{note}</span> })}
            </p>
        }
        .into_any(),
        EngineStatus::Ready { gpu: Err(reason), note } => view! {
            <p class="banner banner-warn" data-testid="engine-status" role="status">
                "WebGPU is not available here (" {reason} "). Every run uses the CPU backend (burn-flex) instead; the routing is the same."
                {note.map(|note| view! { " " <span class="banner-note">{note}</span> })}
            </p>
        }
        .into_any(),
        EngineStatus::Restarting(why) => view! {
            <p class="banner banner-info" data-testid="engine-status" role="status">
                <span class="spinner" aria-hidden="true"></span>
                {why}
            </p>
        }
        .into_any(),
        EngineStatus::Failed(reason) => view! {
            <p class="banner banner-error" data-testid="engine-status" role="alert">
                {reason} " Reload the page to try again."
            </p>
        }
        .into_any(),
    }
    }
}

/// What was ignored in the link the page was opened with.
#[component]
fn UrlNotices(notices: RwSignal<Vec<UrlNotice>>) -> impl IntoView {
    move || {
        let notices = notices.get();
        (!notices.is_empty()).then(|| {
            view! {
                <div class="banner banner-warn" data-testid="url-notices" role="status">
                    <ul>{notices.into_iter().map(|notice| view! { <li>{notice.to_string()}</li> }).collect_view()}</ul>
                </div>
            }
        })
    }
}
