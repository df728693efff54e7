//! The editor's choice of burn's macro version, and what 0.23.0-pre.1 makes of the text against
//! 0.22.1: its backend catalog's change and the diff of the generated code, both read from the
//! two expansions the expander answers every edit with.

use leptos::prelude::*;
use macro_expander::{Expansion, MacroVersion};

use crate::teach::editor::versions::{catalog_change, version_diff};
use crate::teach::routing::highlight;

/// "burn 0.22.1, runs here" / "0.23.0-pre.1, expansion only", labelled with the versions that
/// answered.
#[component]
pub fn VersionChoice(
    version: RwSignal<MacroVersion>,
    expansion: RwSignal<Option<Expansion>>,
    preview: RwSignal<Option<Expansion>>,
) -> impl IntoView {
    let label = move |held: MacroVersion| {
        let answered = match held {
            MacroVersion::V0_22 => expansion,
            MacroVersion::V0_23 => preview,
        };
        let number = answered.with(|answered| {
            answered
                .as_ref()
                .map(|answered| answered.macro_version.clone())
                .unwrap_or_default()
        });
        match held {
            MacroVersion::V0_22 => format!("burn {number}, runs here"),
            MacroVersion::V0_23 => format!("burn {number}, expansion only"),
        }
    };
    let choice = move |held: MacroVersion, value: &'static str| {
        view! {
            <label>
                <input
                    type="radio"
                    name="editor-version"
                    value=value
                    prop:checked=move || version.get() == held
                    on:change=move |_| version.set(held)
                />
                {move || label(held)}
            </label>
        }
    };
    view! {
        <fieldset class="editor-versions" data-testid="editor-versions" hidden=move || preview.with(Option::is_none)>
            <legend>"Expanded by"</legend>
            {choice(MacroVersion::V0_22, "0.22")}
            {choice(MacroVersion::V0_23, "0.23")}
        </fieldset>
    }
}

/// What the newer version makes of the text, against the version the engine runs.
#[component]
pub fn VersionDiff(
    expansion: RwSignal<Option<Expansion>>,
    preview: RwSignal<Option<Expansion>>,
) -> impl IntoView {
    let both = move || Some((expansion.get()?, preview.get()?));
    let note = move || {
        both().map(|(old, new)| {
            format!(
                "burn-backend-extension {}'s expansion, to read: the engine runs {}'s routing, and a project taken home pins {}.",
                new.macro_version, old.macro_version, old.macro_version
            )
        })
    };
    let catalog = move || both().and_then(|(old, new)| catalog_change(&new, &old));
    let diff = Memo::new(move |_| {
        both().and_then(|(old, new)| Some((version_diff(&new, &old)?, new, old)))
    });
    let summary = move || diff.with(|diff| diff.as_ref().map(|(diff, _, _)| diff.summary.clone()));
    let html = move || {
        diff.with(|diff| {
            diff.as_ref().map(|(diff, new, old)| {
                highlight::diff_to_html(
                    &diff.lines,
                    &highlight::highlight(new.code.as_deref().unwrap_or("")),
                    &highlight::highlight(old.code.as_deref().unwrap_or("")),
                )
            })
        })
    };
    view! {
        <div class="editor-version-diff">
            <p class="note" data-testid="editor-version-note">{note}</p>
            <p class="note" data-testid="editor-version-catalog">{catalog}</p>
            <Show when=move || diff.with(Option::is_some)>
                <p class="diff-summary" data-testid="editor-version-summary">{summary}</p>
                <details class="editor-code" open>
                    <summary>{move || both().map(|(old, new)| format!("The code {} generates against {}'s: lines it adds, lines it drops", new.macro_version, old.macro_version))}</summary>
                    <pre class="code" data-testid="editor-version-diff"><code inner_html=html></code></pre>
                </details>
            </Show>
        </div>
    }
}
