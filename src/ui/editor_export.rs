//! "Take it home" for the editor's text: the declaration as written, as a Cargo project with an
//! impl for each backend it lists ([`crate::teach::export::edited`]), to download or read.
//!
//! Offered once burn's macro accepted the text without an error (the expander's outline of it)
//! and the ops' own declarations are outlined (the catalog's expansions): what an impl runs is
//! decided by comparing the text's methods with the ops' from those outlines.

use leptos::prelude::*;
use macro_expander::Expansion;

use super::browser::{details_open, download};
use super::editor_link::use_editor_host;
use crate::model::scenario::Scenario;
use crate::teach::export::edited::{OpMethod, export_edited};
use crate::teach::export::project::{FILES, Project};
use crate::teach::export::zip::zip;
use crate::teach::form::Form;

/// The editor's export: `text` and its `expansion`, `ops` the ops' methods once outlined.
#[component]
pub fn EditorExport(
    text: RwSignal<String>,
    expansion: RwSignal<Option<Expansion>>,
    ops: RwSignal<Option<Vec<OpMethod>>>,
) -> impl IntoView {
    let host = use_editor_host();
    let status = RwSignal::new(None::<String>);
    let ready = Memo::new(move |_| {
        expansion.with(|expansion| {
            expansion
                .as_ref()
                .is_some_and(|expansion| expansion.outline.is_some())
        }) && ops.with(Option::is_some)
    });
    // Written only when downloaded or a file opened: the scenario's input may be large.
    let project = move || -> Option<Project> {
        let scenario = host
            .scenario()
            .or_else(|| Form::default().scenario().ok())
            .map(|scenario| Scenario {
                fix: crate::model::scenario::Fix::None,
                ..scenario
            })?;
        let outline = expansion.with_untracked(|expansion| expansion.as_ref()?.outline.clone())?;
        ops.with_untracked(|ops| {
            let ops = ops.as_ref()?;
            Some(text.with_untracked(|text| export_edited(text, &outline, ops, &scenario)))
        })
    };
    let on_download = move |_| {
        let Some(project) = project() else {
            return;
        };
        let name = format!("{}.zip", project.name);
        status.set(Some(match download(&name, &zip(&project)) {
            Ok(()) => format!("Downloaded {name}."),
            Err(error) => format!("The download did not start: {error:?}"),
        }));
    };
    let files = FILES
        .iter()
        .map(|&path| {
            let shown = RwSignal::new(None::<String>);
            let on_toggle = move |event: web_sys::Event| {
                shown.set(
                    details_open(&event)
                        .then(|| {
                            project().and_then(|project| project.file(path).map(str::to_owned))
                        })
                        .flatten(),
                );
            };
            view! {
                <details class="export-file" data-file=path on:toggle=on_toggle>
                    <summary><code>{path}</code></summary>
                    <pre class="snippet"><code>{move || shown.get()}</code></pre>
                </details>
            }
        })
        .collect_view();
    view! {
        <div class="editor-export" data-testid="editor-export" hidden=move || !ready.get()>
            <h3>"Take it home"</h3>
            <p class="note">
                "Your declaration as written, in a Cargo project with an impl for each backend it lists: a method with the signature of one of the playground's ops runs that op's code, any other is "
                <code>"todo!()"</code>
                ". Its README says which, and what "
                <code>"cargo run"</code>
                " does."
            </p>
            <div class="run-row">
                <button type="button" class="run-button" data-testid="editor-export-button" on:click=on_download>
                    "Download the Cargo project (.zip)"
                </button>
                <span class="note" role="status" data-testid="editor-export-status">{move || status.get()}</span>
            </div>
            {files}
        </div>
    }
}
