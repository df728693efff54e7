//! "Take it home": the scenario as a small Cargo project — a `.zip` to download, and each file
//! to read and copy — that reproduces natively what the page ran.

use leptos::prelude::*;

use super::browser::{details_open, download};
use super::state::{Playground, use_playground};
use crate::client::machine::Reply;
use crate::model::scenario::Scenario;
use crate::teach::export::project::{FILES, Shown, export, export_file};
use crate::teach::export::zip::zip;

/// What a reply showed, as the exported program shows it.
fn shown(reply: &Reply) -> Option<Shown> {
    match reply {
        Reply::Outcome(outcome) => Shown::of(outcome),
        Reply::WorkerPanicked(report) => Some(Shown::Panicked(report.message.clone())),
        _ => None,
    }
}

/// The scenario to export — as the last run ran it when that run was of the form's scenario (the
/// engine may have sent it to the CPU) — with what the page showed for it.
type Source = Option<(Scenario, Option<Shown>)>;

/// The source as the form and the last run are now. Read only where a file is written (an open
/// box, a copy, the download): as a memo it compared the run's scenario with the form's after
/// every run, a million values at that size (a CPU profile of five 1 M runs: `memcmp` 11.6 →
/// 5.3 ms, `SlicePartialEq` 5.8 ms → gone).
fn source(playground: Playground) -> Source {
    let scenario = playground
        .form
        .with(|form| playground.parse_cache.scenario(form).ok())?;
    let ran = playground.last_run.with(|run| {
        run.as_ref()
            .filter(|run| {
                Scenario {
                    backend: scenario.backend,
                    ..run.scenario.clone()
                } == scenario
            })
            .map(|run| (run.scenario.clone(), shown(&run.reply)))
    });
    Some(ran.unwrap_or((scenario, None)))
}

/// The export panel. The project is written only when it is downloaded, copied or a file of it
/// opened: its `main.rs` holds every value of the input, and a run with a big tensor would
/// otherwise write them all into the page again.
#[component]
pub fn ExportPanel() -> impl IntoView {
    let playground = use_playground();
    let exportable = Memo::new(move |_| playground.input_errors.with(Vec::is_empty));
    let status = RwSignal::new(None::<String>);
    let on_download = move |_| {
        let Some(project) = untrack(|| source(playground))
            .map(|(scenario, shown)| export(&scenario, shown.as_ref()))
        else {
            return;
        };
        let name = format!("{}.zip", project.name);
        status.set(Some(match download(&name, &zip(&project)) {
            Ok(()) => format!("Downloaded {name}."),
            Err(error) => format!("The download did not start: {error:?}"),
        }));
    };
    view! {
        <section class="panel export" aria-labelledby="export-heading">
            <h2 id="export-heading">"Take it home"</h2>
            <p class="note">
                "This scenario as a small Cargo project: the op's trait with exactly this declaration, its implementations and kernel, and a "
                <code>"main"</code>
                " that calls it as the page did. Its README says what the page showed for it."
            </p>
            <div class="run-row">
                <button
                    type="button"
                    class="run-button"
                    data-testid="export-button"
                    prop:disabled=move || !exportable.get()
                    on:click=on_download
                >"Download the Cargo project (.zip)"</button>
                <span class="note" role="status" data-testid="export-status">{move || status.get()}</span>
            </div>
            {move || exportable.get().then(|| view! { <ProjectFiles/> })}
            <EmbedSnippet/>
            {move || (!exportable.get()).then(|| view! {
                <p class="note">"A field above does not parse: fix it to export the scenario."</p>
            })}
        </section>
    }
}

/// Each file of the project, to read and copy: written when its box is opened (and again while
/// it is open, when the scenario changes), or when it is copied.
#[component]
fn ProjectFiles() -> impl IntoView {
    let playground = use_playground();
    let text_of = move |path: &str| {
        source(playground)
            .map(|(scenario, shown)| export_file(&scenario, shown.as_ref(), path))
            .unwrap_or_default()
    };
    FILES
        .iter()
        .map(|&path| {
            let copied = RwSignal::new(false);
            let open = RwSignal::new(false);
            let copy = move |_| {
                let text = untrack(|| text_of(path));
                let clipboard = web_sys::window().map(|window| window.navigator().clipboard());
                leptos::task::spawn_local(async move {
                    if let Some(clipboard) = clipboard {
                        let done =
                            wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&text)).await;
                        copied.set(done.is_ok());
                    }
                });
            };
            let on_toggle = move |event: web_sys::Event| open.set(details_open(&event));
            view! {
                <details class="export-file" data-file=path on:toggle=on_toggle>
                    <summary><code>{path}</code></summary>
                    <button type="button" class="share-button copy-button" on:click=copy>
                        {move || if copied.get() { "Copied" } else { "Copy" }}
                    </button>
                    <pre class="snippet"><code>{move || open.get().then(|| text_of(path))}</code></pre>
                </details>
            }
        })
        .collect_view()
}

/// The scenario as an iframe for a book page or a post: the compact embed of this page.
#[component]
fn EmbedSnippet() -> impl IntoView {
    let playground = use_playground();
    let snippet = move || {
        playground.form.with(|form| {
            let title = format!(
                "Burn Extension Playground: {} declared #[backend_extension({})]",
                form.op.name(),
                form.declaration.selectors()
            );
            format!(
                "<iframe src=\"{}\" title=\"{}\" width=\"100%\" height=\"760\" loading=\"lazy\" style=\"border: 0\"></iframe>",
                escape_attribute(&super::url::link_to(form, true)),
                escape_attribute(&title)
            )
        })
    };
    let copied = RwSignal::new(false);
    let copy = move |_| {
        let text = snippet();
        let clipboard = web_sys::window().map(|window| window.navigator().clipboard());
        leptos::task::spawn_local(async move {
            if let Some(clipboard) = clipboard {
                let done = wasm_bindgen_futures::JsFuture::from(clipboard.write_text(&text)).await;
                copied.set(done.is_ok());
            }
        });
    };
    view! {
        <h3>"Embed it in a page"</h3>
        <p class="note">
            "The compact playground (the controls, the outcome and the routing arm, with a link back here), for an iframe in a book page or a post:"
        </p>
        <div class="embed-snippet">
            <button type="button" class="share-button copy-button" on:click=copy data-testid="copy-embed">
                {move || if copied.get() { "Copied" } else { "Copy" }}
            </button>
            <pre class="snippet" tabindex="0"><code data-testid="embed-snippet">{snippet}</code></pre>
        </div>
    }
}

/// `text` for a double-quoted HTML attribute.
fn escape_attribute(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}
