//! The page: a Leptos app over the shared [`state::Playground`] — the form the person edits,
//! kept in the URL, and the engine worker that runs it.
//!
//! - [`state`]: the shared state, and the one way runs start.
//! - [`controls`]: the scenario's controls and the share button.
//! - [`outcome_view`]: the last run's result or panic, explained, with its fixes.
//! - [`tensor_view`]: a tensor too long to read at once: its summary, pages of its values, its
//!   CSV.
//! - [`routing_view`]: the generated routing, with the arm the last run took highlighted.
//! - [`training_view`]: the op inside training steps, with the loss curves.
//! - [`export_view`]: the scenario as a Cargo project to take home.
//! - [`editor_shell`]: the "Write your own declaration" box, which loads the editor (its own
//!   wasm, bin `editor-ui`) when it first opens; [`editor_link`] is what the page and the editor
//!   say to each other. The editor: [`editor_view`], a declaration the person writes, expanded
//!   live by burn's own macro code; [`expander_shell`] runs that code's worker; [`editor_code`]
//!   shows the generated code and where each line comes from; [`editor_export`] takes the text
//!   home;
//!   [`editor_versions`] shows it under burn 0.23.0-pre.1's macro code against 0.22.1's.
//! - [`gallery_view`]: the related-errors gallery.
//! - [`tour`]: the guided first visit.
//! - [`banner`]: the engine's state and the link's notices.
//! - [`engine_shell`]: carries out the engine client's commands (`crate::client`) with web-sys.
//! - [`engine_loader`]: the engine's compiled module and its download progress.
//! - [`parse_cache`], [`url`], [`theme`], [`browser`]: the fields parsed once per edit, the
//!   address bar, light/dark, downloads and `<details>` boxes.

pub mod banner;
pub mod browser;
pub mod controls;
pub mod editor_code;
pub mod editor_export;
pub mod editor_link;
pub mod editor_shell;
pub mod editor_versions;
pub mod editor_view;
pub mod engine_loader;
pub mod engine_shell;
pub mod expander_shell;
pub mod export_view;
pub mod gallery_view;
pub mod outcome_view;
pub mod parse_cache;
pub mod routing_view;
pub mod state;
pub mod tensor_view;
pub mod theme;
pub mod tour;
pub mod training_view;
pub mod url;

use leptos::ev;
use leptos::prelude::*;

use banner::{EngineBanner, OfflineNotice, UrlNotices};
use controls::Controls;
use editor_shell::EditorPanel;
use export_view::ExportPanel;
use gallery_view::GalleryView;
use outcome_view::OutcomePanel;
use routing_view::RoutingView;
use state::{Playground, use_playground};
use theme::ThemeSwitch;
use tour::{Tour, TourButton};
use training_view::TrainingPanel;
use url::HistoryMode;

/// Mounts the app on `<body>`.
pub fn mount() {
    leptos::mount::mount_to_body(App);
}

/// The whole page, or its compact embed (`?embed`).
#[component]
pub fn App() -> impl IntoView {
    let playground = Playground::provide();
    let embed = playground.form.with_untracked(|form| form.embed);
    // Asked before the scenario goes into the address bar; never in an embed.
    let tour = RwSignal::new((!embed && tour::first_visit()).then_some(0));

    // Back/forward: the form from the URL, run. Ctrl/Cmd + Enter runs from anywhere.
    // The handles live as long as the app and remove their listeners when it goes.
    let popstate = window_event_listener(ev::popstate, move |_| playground.restore_from_url());
    let keydown = window_event_listener(ev::keydown, move |event| {
        if event.key() == "Enter" && (event.ctrl_key() || event.meta_key()) {
            event.prevent_default();
            playground.schedule_run(0);
        }
    });
    on_cleanup(move || {
        popstate.remove();
        keydown.remove();
    });

    // Canonical URL for what is shown, then the first run.
    playground
        .form
        .with_untracked(|form| url::write(form, HistoryMode::Replace));
    playground.schedule_run(0);

    if embed {
        return view! { <Embed/> }.into_any();
    }
    view! {
        <header class="page-header">
            <div>
                <h1>"Burn Extension Playground"</h1>
                <p class="tagline">
                    "Runs the routing that burn 0.22.1's " <code>"#[backend_extension]"</code>
                    " generates for custom ops — live, in your browser — and shows what it does when an op meets a training loop."
                </p>
            </div>
            <div class="header-buttons">
                <TourButton open=tour/>
                <ThemeSwitch/>
            </div>
        </header>
        <OfflineNotice/>
        <EngineBanner/>
        <UrlNotices/>
        <main class="layout">
            <section class="panel" aria-labelledby="scenario-heading">
                <h2 id="scenario-heading">"Scenario"</h2>
                <Controls/>
            </section>
            <OutcomePanel/>
        </main>
        <div class="wide">
            <TrainingPanel/>
            <ExportPanel/>
            <RoutingView/>
            <EditorPanel/>
            <GalleryView/>
        </div>
        <Tour open=tour/>
        <footer class="page-footer">
            <p>
                "Every panic message on this page was captured from a real panic by the engine's panic hook, in its Web Worker: raised by the routing burn's macro generated, or by burn itself (each card gives the file). "
                "Share the exact scenario with the page's link."
            </p>
        </footer>
    }
    .into_any()
}

/// The compact page for an iframe in a book page or a post: the scenario's controls, its
/// outcome and the routing arm it went through, and a link to the same scenario in the full
/// playground. No tour, no gallery, no training.
#[component]
fn Embed() -> impl IntoView {
    let playground = use_playground();
    let full = move || playground.form.with(|form| url::link_to(form, false));
    view! {
        <div class="embed">
            <header class="embed-header">
                <strong>"Burn Extension Playground"</strong>
                <span class="header-buttons">
                    <a href=full target="_blank" rel="noopener" data-testid="open-full">
                        "Open in the playground"
                    </a>
                    <ThemeSwitch/>
                </span>
            </header>
            <OfflineNotice/>
            <EngineBanner/>
            <UrlNotices/>
            <main class="layout">
                <section class="panel" aria-labelledby="scenario-heading">
                    <h2 id="scenario-heading">"Scenario"</h2>
                    <Controls/>
                </section>
                <OutcomePanel/>
            </main>
            <RoutingView/>
        </div>
    }
}
