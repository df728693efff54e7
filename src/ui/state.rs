//! The page's shared state, provided once by the app ([`Playground::provide`]) and read by
//! every component through [`use_playground`].
//!
//! It holds what the person edits (the [`Form`]), what the engine reports (its [`Status`] and
//! the last run), and the one way runs start ([`Playground::schedule_run`]): every edit, fix,
//! link and key press ends there.

use std::sync::Arc;

use leptos::prelude::*;

use super::engine_loader::LoadProgress;
use super::engine_shell::EngineClient;
use super::parse_cache::ParseCache;
use super::url::{self, HistoryMode};
use crate::client::machine::{Reply, SpareState, Status};
use crate::model::scenario::Scenario;
use crate::teach::form::Form;
use crate::teach::input::args::ArgsError;
use crate::teach::link::query::UrlNotice;
use crate::teach::words::explain::FixAction;

/// Pause after typing before a re-run, in milliseconds.
const TYPING_DEBOUNCE_MS: u32 = 300;

/// How long a run waits for its answer before the page says "Running…", in milliseconds. A
/// quicker answer (most are) would only flash the note, and drawing it costs the page's thread a
/// whole frame's paint (a trace of 64 K-element runs: about 5 ms), which the answer then waits for.
pub const RUNNING_NOTE_DELAY_MS: u32 = 100;

/// What kind of edit happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// A toggle, radio button or button: re-run now, new history entry.
    Toggle,
    /// Typing in a field: re-run after a pause, same history entry.
    Typing,
}

/// A finished run, with the scenario it ran.
#[derive(Clone, Debug, PartialEq)]
pub struct LastRun {
    /// What was run (as sent; the backend may have been switched to the CPU).
    pub scenario: Scenario,
    /// How it ended.
    pub reply: Reply,
    /// From the request to the answer, measured on the page, in milliseconds.
    pub round_trip_ms: f64,
}

/// Everything the page's components share. Copy: every field is a handle.
#[derive(Clone, Copy)]
pub struct Playground {
    /// What the controls show.
    pub form: RwSignal<Form>,
    /// The fields, parsed once per edit.
    pub parse_cache: ParseCache,
    /// The fields' messages for the current text (empty when everything parses).
    pub input_errors: Memo<Vec<ArgsError>>,
    /// Bumped whenever the fields' text is replaced from outside (op switch, link, fix), so the
    /// text fields are rewritten only then and typing never moves the caret.
    pub text_revision: RwSignal<u64>,
    /// What the link the page was opened with had that could not be used.
    pub url_notices: RwSignal<Vec<UrlNotice>>,
    /// The engine's state.
    pub status: ReadSignal<Status>,
    /// Whether the engine has a GPU device, as its last ready worker said (kept while a
    /// replacement starts); `None` until a worker was ready.
    pub gpu_known: Memo<Option<bool>>,
    /// Where the spare engine worker is (exposed as `data-spare` for tests and benchmarks).
    pub spare: ReadSignal<SpareState>,
    /// The engine's download, while it lasts.
    pub load_progress: ReadSignal<Option<LoadProgress>>,
    /// The last run whose answer was shown (shared: its scenario and values may be megabytes,
    /// and every reader would otherwise clone them).
    pub last_run: RwSignal<Option<Arc<LastRun>>>,
    /// Whether a run is waiting for its answer (the outcome panel's `aria-busy`).
    pub pending: RwSignal<bool>,
    /// Whether the pending run has waited longer than [`RUNNING_NOTE_DELAY_MS`] ("Running…").
    pub running_note: RwSignal<bool>,
    /// Runs whose outcome was shown (exposed as `data-runs` for tests and benchmarks).
    pub runs_shown: RwSignal<u64>,
    /// The engine client.
    pub client: StoredValue<EngineClient, LocalStorage>,
    /// The newest requested run: older answers are dropped.
    latest: StoredValue<u64>,
}

/// The page's shared state (provided by the app).
pub fn use_playground() -> Playground {
    expect_context::<Playground>()
}

fn now_ms() -> f64 {
    web_sys::window()
        .and_then(|window| window.performance())
        .map(|performance| performance.now())
        .unwrap_or(0.0)
}

impl Playground {
    /// Reads the form from the URL, starts the engine, and provides the state to every
    /// component below the caller.
    pub fn provide() -> Playground {
        let (initial, notices) = url::read();
        let form = RwSignal::new(initial);
        let parse_cache = form.with_untracked(ParseCache::new);
        let (status, set_status) = signal(Status::Loading);
        let (load_progress, set_load_progress) = signal(None);
        let (spare, set_spare) = signal(SpareState::None);
        let playground = Playground {
            form,
            parse_cache,
            input_errors: Memo::new(move |_| form.with(|form| parse_cache.errors(form))),
            text_revision: RwSignal::new(0),
            url_notices: RwSignal::new(notices),
            status,
            gpu_known: Memo::new(move |previous: Option<&Option<bool>>| match status.get() {
                Status::Ready { gpu, .. } => Some(gpu.is_ok()),
                Status::Failed(_) => Some(false),
                _ => previous.copied().flatten(),
            }),
            spare,
            load_progress,
            last_run: RwSignal::new(None),
            pending: RwSignal::new(false),
            running_note: RwSignal::new(false),
            runs_shown: RwSignal::new(0),
            client: StoredValue::new_local(EngineClient::start(
                set_status,
                set_spare,
                set_load_progress,
            )),
            latest: StoredValue::new(0),
        };
        provide_context(playground);
        super::browser::mark("page-started");
        Effect::new(move |_| {
            if matches!(status.get(), Status::Ready { .. }) {
                super::browser::mark("engine-ready");
            }
        });
        playground
    }

    /// Whether runs can use the GPU: `None` while the engine starts.
    pub fn gpu_available(self) -> Option<bool> {
        match self.status.get() {
            Status::Ready { gpu, .. } => Some(gpu.is_ok()),
            Status::Failed(_) => Some(false),
            _ => None,
        }
    }

    /// Whether the engine has a GPU device, read without tracking (a fix offered after a run).
    pub fn gpu_available_untracked(self) -> bool {
        matches!(
            self.status.get_untracked(),
            Status::Ready { gpu: Ok(_), .. }
        )
    }

    /// Runs the form as it is now, after `delay_ms`, unless a newer run is requested meanwhile.
    pub fn schedule_run(self, delay_ms: u32) {
        let generation = self.latest.get_value() + 1;
        self.latest.set_value(generation);
        let Ok(scenario) = self
            .form
            .with_untracked(|form| self.parse_cache.scenario(form))
        else {
            // The fields say what is wrong; the last outcome is marked as the previous one's.
            self.settle();
            return;
        };
        self.pending.set(true);
        leptos::task::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(RUNNING_NOTE_DELAY_MS).await;
            if self.latest.get_value() == generation && self.pending.get_untracked() {
                self.running_note.set(true);
            }
        });
        leptos::task::spawn_local(async move {
            if delay_ms > 0 {
                gloo_timers::future::TimeoutFuture::new(delay_ms).await;
                if self.latest.get_value() != generation {
                    return;
                }
            }
            let started = now_ms();
            let (reply, scenario) = self.client.get_value().run(scenario).await;
            if reply == Reply::Superseded || self.latest.get_value() != generation {
                return;
            }
            self.settle();
            if self.runs_shown.get_untracked() == 0 {
                super::browser::mark("first-outcome");
            }
            self.runs_shown.update(|runs| *runs += 1);
            self.last_run.set(Some(Arc::new(LastRun {
                scenario,
                reply,
                round_trip_ms: now_ms() - started,
            })));
        });
    }

    /// No run is waiting any more.
    fn settle(self) {
        self.pending.set(false);
        self.running_note.set(false);
    }

    /// Applies an edit, records it in the URL and re-runs.
    pub fn edit(self, change: Change, apply: impl FnOnce(&mut Form)) {
        self.form.update(apply);
        self.changed(change);
    }

    /// Records the form in the URL and re-runs: now for a toggle, after a pause for typing.
    pub fn changed(self, change: Change) {
        let mode = match change {
            Change::Toggle => HistoryMode::Push,
            Change::Typing => HistoryMode::Replace,
        };
        self.form.with_untracked(|form| url::write(form, mode));
        self.url_notices.set(Vec::new());
        self.schedule_run(match change {
            Change::Toggle => 0,
            Change::Typing => TYPING_DEBOUNCE_MS,
        });
    }

    /// A whole new form (a fix, a gallery card): rewrites the fields, records it, runs it.
    pub fn load_form(self, loaded: Form) {
        self.form.set(loaded);
        self.text_revision.update(|revision| *revision += 1);
        self.changed(Change::Toggle);
    }

    /// Applies a fix button's changes, in order.
    pub fn apply_fix(self, actions: &[FixAction]) {
        let mut fixed = self.form.get_untracked();
        for action in actions {
            action.apply(&mut fixed);
        }
        self.load_form(fixed);
    }

    /// Back/forward: the form from the URL, run.
    pub fn restore_from_url(self) {
        let (restored, notices) = url::read();
        self.form.set(restored);
        self.url_notices.set(notices);
        self.text_revision.update(|revision| *revision += 1);
        self.schedule_run(0);
    }
}
