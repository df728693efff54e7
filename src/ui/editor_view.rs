//! "Write your own": a declaration the person types, expanded as they type by burn's own macro
//! code (the expander worker, started when the box first opens), with the macro's errors
//! underlined where they point, the code it generated, and, when the declaration is one the
//! engine was built with, a button that runs it; any text the macro accepted can be taken home
//! as a Cargo project ([`super::editor_export`]).
//!
//! The text field is a plain `<textarea>` over a highlighted copy of its text (the page's own
//! highlighting, with the errors marked): an editor library (CodeMirror 6 is about 150 KB gzip
//! with its Rust mode) would be most of what this box downloads, for a few lines of text that
//! need line numbers, indentation and marks. Tab indents; Esc, then Tab, leaves the field.

use std::rc::Rc;

use leptos::html::{Pre, Textarea};
use leptos::prelude::*;
use macro_expander::{Expansion, MacroVersion};

use super::browser::details_open;
use super::editor_code::GeneratedCode;
use super::editor_export::EditorExport;
use super::editor_link::{EditorHost, use_editor_host};
use super::editor_versions::{VersionChoice, VersionDiff};
use super::expander_shell::{Answer, ExpanderShell};
use crate::model::scenario::{Declaration, OpKind};
use crate::teach::editor::marks::{byte_offset, marked_lines, place_label, to_html, utf16_offset};
use crate::teach::editor::versions::VERSION_EXAMPLE;
use crate::teach::editor::{
    Catalog, Offer, capped, catalog_lines, line_words, matching_lines, of_version, starting_text,
    verdict,
};
use crate::teach::export::edited::{OUTLINED_LINE, OpMethod};
use crate::teach::link::query::MAX_URL_EDITOR_BYTES;

/// Where the text is kept for the tab's life (a reload, the fusion engine's page).
const STORAGE_KEY: &str = "playground-editor-text";
/// What Tab inserts.
const INDENT: &str = "    ";

/// What the expander is doing for the text shown.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    /// Nothing asked yet.
    Idle,
    /// The newest text is with the expander (its first answer also loads it).
    Expanding,
    /// The newest text's expansion is shown.
    Expanded,
    /// The worker stopped on the newest text; it is replaced at the next edit.
    Crashed(String),
}

fn session_storage() -> Option<web_sys::Storage> {
    web_sys::window()?.session_storage().ok().flatten()
}

/// Mounts the editor in `host` (the page's "Write your own declaration" box, which is open),
/// over the page's `link` ([`super::editor_link::page_link`]).
pub fn mount(host: web_sys::HtmlElement, link: wasm_bindgen::JsValue) {
    leptos::mount::mount_to(host, move || {
        provide_context(EditorHost::new(link));
        view! { <EditorBox/> }
    })
    .forget();
}

/// What the editor's box holds once its wasm is loaded.
#[component]
pub fn EditorBox() -> impl IntoView {
    let host = use_editor_host();
    let text = RwSignal::new(String::new());
    let cut = RwSignal::new(false);
    let status = RwSignal::new(Status::Idle);
    // The newest text's expansion by 0.22.1's macro code (whose routing the engine runs), and by
    // 0.23.0-pre.1's; which of them the box shows.
    let expansion = RwSignal::new(None::<Expansion>);
    let preview = RwSignal::new(None::<Expansion>);
    let version = RwSignal::new(MacroVersion::V0_22);
    let shown = Memo::new(move |_| match version.get() {
        MacroVersion::V0_22 => expansion.get(),
        MacroVersion::V0_23 => preview.get(),
    });
    let catalog = RwSignal::new(None::<Catalog>);
    // The ops' methods, from the catalog's expansions of their declarations.
    let op_methods = RwSignal::new(None::<Vec<OpMethod>>);
    let licenses = RwSignal::new(None::<String>);
    // The newest edit's request, and the catalog's: any other answer is stale.
    let latest = StoredValue::new(0u64);
    let catalog_request = StoredValue::new(0u64);
    // Whether the newest edit's request is out, and whether the text changed since it was sent.
    let in_flight = StoredValue::new(false);
    let edited_since = StoredValue::new(false);
    let escaped = StoredValue::new(false);
    // The field's selection in bytes, and the bytes the focused generated line carries.
    let selected = RwSignal::new(None::<std::ops::Range<usize>>);
    let focused_sources = RwSignal::new(Vec::<std::ops::Range<usize>>::new());
    let field = NodeRef::<Textarea>::new();
    let overlay = NodeRef::<Pre>::new();
    let gutter = NodeRef::<Pre>::new();

    // Set below, once what its answers call is defined.
    let shell_slot = StoredValue::new_local(None::<Rc<ExpanderShell>>);

    // The catalog's expansions, asked once (and again after a crash lost them).
    let ask_catalog = move || {
        if catalog.with_untracked(Option::is_some) || catalog_request.get_value() != 0 {
            return;
        }
        let texts: Vec<String> = catalog_lines()
            .map(|(op, line)| starting_text(op, line))
            .collect();
        let texts: Vec<&str> = texts.iter().map(String::as_str).collect();
        if let Some(shell) = shell_slot.get_value() {
            catalog_request.set_value(shell.expand(&texts));
        }
    };
    let expand_now = move || {
        let Some(shell) = shell_slot.get_value() else {
            return;
        };
        let id = text.with_untracked(|text| shell.expand(&[text]));
        latest.set_value(id);
        in_flight.set_value(true);
        edited_since.set_value(false);
        status.set(Status::Expanding);
    };
    // One request at a time: an edit made while one is out is sent when its answer comes.
    let expand_soon = move || {
        if in_flight.get_value() {
            edited_since.set_value(true);
            status.set(Status::Expanding);
        } else {
            expand_now();
        }
    };
    let on_answer = move |answer: Answer| match answer {
        Answer::Expanded { id, mut expansions } => {
            if id == latest.get_value() {
                in_flight.set_value(false);
                // An answer to older text is never shown: the newest text goes out instead.
                if edited_since.get_value() {
                    return expand_now();
                }
                let versions = expansions.pop().unwrap_or_default();
                expansion.set(of_version(&versions, MacroVersion::V0_22));
                preview.set(of_version(&versions, MacroVersion::V0_23));
                status.set(Status::Expanded);
                ask_catalog();
            } else if id == catalog_request.get_value() {
                let outlines: Vec<_> = catalog_lines()
                    .zip(&expansions)
                    .filter(|((_, line), _)| *line == OUTLINED_LINE)
                    .filter_map(|((op, _), versions)| {
                        Some((op, of_version(versions, MacroVersion::V0_22)?.outline?))
                    })
                    .collect();
                op_methods.set(Some(OpMethod::from_outlines(
                    outlines.iter().map(|(op, outline)| (*op, outline)),
                )));
                catalog.set(Some(
                    catalog_lines()
                        .zip(expansions)
                        .map(|((op, line), versions)| {
                            let tokens = of_version(&versions, MacroVersion::V0_22)
                                .and_then(|expansion| expansion.tokens);
                            (op, line, tokens)
                        })
                        .collect(),
                ));
            }
        }
        Answer::Crashed { id, reason } => {
            // The worker went with every request it held: the catalog's is asked again.
            catalog_request.set_value(0);
            if id.is_none() || id == Some(latest.get_value()) {
                in_flight.set_value(false);
                edited_since.set_value(false);
                status.set(Status::Crashed(reason));
            }
        }
        Answer::Licenses(texts) => licenses.set(Some(texts)),
    };
    shell_slot.set_value(Some(ExpanderShell::new(on_answer)));
    // The text goes into the link (and the tab's storage, for a text too long for a link); it
    // never re-runs the scenario.
    let set_text = move |value: String| {
        let (kept, was_cut) = capped(&value);
        cut.set(was_cut);
        if let Some(storage) = session_storage() {
            let _ = storage.set_item(STORAGE_KEY, kept);
        }
        host.set_text(kept);
        text.set(kept.to_owned());
    };
    let load = move |value: String| {
        set_text(value);
        if let Some(field) = field.get_untracked() {
            field.set_value(&text.get_untracked());
        }
        expand_now();
    };
    let start_from_form = move || {
        let (op, declaration) = host
            .state
            .with_untracked(|state| (state.op, state.declaration));
        load(starting_text(op, declaration));
    };
    // Opened for the first time: the link's text, the tab's, or the scenario's declaration.
    let first_open = move || {
        if status.get_untracked() != Status::Idle {
            return;
        }
        let linked = host.linked_text();
        let kept = || session_storage()?.get_item(STORAGE_KEY).ok().flatten();
        match linked.or_else(kept) {
            Some(text) if !text.is_empty() => load(text),
            _ => start_from_form(),
        }
    };
    // Mounted when the box first opens (or a link with the editor's text opened it): the text
    // goes into the field once the field is there.
    Effect::new(move |_| {
        if field.get().is_some() {
            first_open();
        }
    });

    let sync_scroll = move || {
        let Some(field) = field.get_untracked() else {
            return;
        };
        if let Some(overlay) = overlay.get_untracked() {
            overlay.set_scroll_top(field.scroll_top());
            overlay.set_scroll_left(field.scroll_left());
        }
        if let Some(gutter) = gutter.get_untracked() {
            gutter.set_scroll_top(field.scroll_top());
        }
    };
    let on_input = move |event: web_sys::Event| {
        let value = event_target_value(&event);
        if value.len() > crate::teach::editor::MAX_TEXT_BYTES
            && let Some(field) = field.get_untracked()
        {
            field.set_value(capped(&value).0);
        }
        set_text(value);
        expand_soon();
    };
    let on_keydown = move |event: web_sys::KeyboardEvent| {
        let key = event.key();
        if key == "Escape" {
            escaped.set_value(true);
            return;
        }
        let leave = escaped.get_value();
        escaped.set_value(false);
        if key != "Tab" || event.shift_key() || leave || event.ctrl_key() || event.alt_key() {
            return;
        }
        let Some(field) = field.get_untracked() else {
            return;
        };
        event.prevent_default();
        let start = field.selection_start().ok().flatten().unwrap_or(0);
        let end = field.selection_end().ok().flatten().unwrap_or(start);
        if field
            .set_range_text_with_start_and_end(INDENT, start, end)
            .is_ok()
        {
            let caret = start + INDENT.len() as u32;
            let _ = field.set_selection_range(caret, caret);
            set_text(field.value());
            expand_soon();
        }
    };
    // The field's selection, in bytes of its text.
    let read_selection = move || {
        let Some(field) = field.get_untracked() else {
            return;
        };
        let start = field.selection_start().ok().flatten().unwrap_or(0);
        let end = field.selection_end().ok().flatten().unwrap_or(start);
        let bytes = text.with_untracked(|text| byte_offset(text, start)..byte_offset(text, end));
        if selected.get_untracked() != Some(bytes.clone()) {
            selected.set(Some(bytes));
        }
    };
    // Puts the caret on an error's place (and selects what it points at).
    let select_place = move |bytes: std::ops::Range<usize>| {
        let Some(field) = field.get_untracked() else {
            return;
        };
        let (start, end) = text.with_untracked(|text| {
            (
                utf16_offset(text, bytes.start),
                utf16_offset(text, bytes.end),
            )
        });
        let _ = field.focus();
        let _ = field.set_selection_range(start, end);
        read_selection();
    };

    // The highlighted copy under the field, with the newest expansion's errors marked (only
    // when that expansion is of this text: an older one's bytes point elsewhere).
    Effect::new(move |_| {
        let html = text.with(|text| {
            shown.with(|expansion| {
                let errors = match (expansion, status.get()) {
                    (Some(expansion), Status::Expanded) => expansion.errors.as_slice(),
                    _ => &[],
                };
                focused_sources.with(|sources| to_html(&marked_lines(text, errors, sources)))
            })
        });
        if let Some(overlay) = overlay.get() {
            overlay.set_inner_html(&html);
        }
        if let Some(gutter) = gutter.get() {
            let lines = text.with(|text| text.split('\n').count());
            let numbers: Vec<String> = (1..=lines).map(|line| line.to_string()).collect();
            gutter.set_text_content(Some(&numbers.join("\n")));
        }
        sync_scroll();
    });

    let status_text = move || match status.get() {
        Status::Idle => String::new(),
        Status::Expanding if expansion.with(Option::is_none) => {
            "Loading burn's macro code (its own wasm) and expanding…".to_owned()
        }
        Status::Expanding => "Expanding…".to_owned(),
        Status::Expanded => "Expanded.".to_owned(),
        Status::Crashed(reason) => format!(
            "The expander's worker stopped on this text ({reason}). It is started again at the \
             next edit; your text is kept."
        ),
    };
    let errors = move || {
        shown.with(|expansion| {
            expansion
                .as_ref()
                .map(|expansion| expansion.errors.clone())
                .unwrap_or_default()
        })
    };
    let error_list = move || {
        let errors = errors();
        (!errors.is_empty()).then(|| {
            let count = errors.len();
            let items = errors
                .into_iter()
                .map(|error| {
                    // A place is a button that selects what the error points at.
                    let place = error.place.clone().map(|place| {
                        let label = place_label(&place);
                        let bytes = place.bytes;
                        view! {
                            <button
                                type="button"
                                class="link-button"
                                on:click=move |_| select_place(bytes.clone())
                            >
                                {label}
                            </button>
                        }
                        .into_any()
                    });
                    let place = place.unwrap_or_else(|| view! { <span>"the whole text"</span> }.into_any());
                    view! { <li>{place} ": " {error.message}</li> }
                })
                .collect_view();
            view! {
                <div class="editor-errors" data-testid="editor-errors">
                    <h3>{if count == 1 { "1 error".to_owned() } else { format!("{count} errors") }}</h3>
                    <ul>{items}</ul>
                </div>
            }
        })
    };
    let verdict_text = move || shown.with(|expansion| expansion.as_ref().map(verdict));

    // The catalog lines the text expands to, token for token.
    let matched = Memo::new(move |_| {
        expansion.with(|expansion| {
            let tokens = expansion.as_ref()?.tokens.as_deref()?;
            catalog.with(|catalog| Some(matching_lines(tokens, catalog.as_ref()?)))
        })
    });
    let run_offer = move || {
        let found = matched.get()?;
        let (op, current, fusion) = host
            .state
            .with(|state| (state.op, state.declaration, state.fusion));
        let Some(&(line_op, line)) = found
            .iter()
            .find(|(found_op, line)| *found_op == op && *line == current)
            .or_else(|| found.first())
        else {
            return Some(view! {
                <p class="note" data-testid="editor-not-built">
                    "The engine runs only the declarations it was built with: the catalog's "
                    {Declaration::ALL.len()} " lines for each of its " {OpKind::ALL.len()}
                    " ops. No line expands to the same tokens as this text, so it can be read here, not run."
                </p>
            }
            .into_any());
        };
        let selected = line_op == op && line == current;
        let (words, offer) = line_words(line_op, line, found.len(), fusion, selected);
        let run = move |_| match offer {
            Offer::RunWithFusion => host.run_with_fusion(line_op, line),
            Offer::RunAgain => host.run_again(),
            Offer::Run | Offer::ShowNotBuilt => host.choose(line_op, line),
        };
        let button = match offer {
            Offer::RunWithFusion => "Run it with burn's fusion (loads that engine)",
            Offer::RunAgain => "Run it again",
            Offer::Run => "Run it here",
            Offer::ShowNotBuilt => "Show it in the scenario",
        };
        Some(
            view! {
                <div class="editor-runs" data-testid="editor-runs-here">
                    <p>{words}</p>
                    <button type="button" class="run-button" on:click=run>{button}</button>
                </div>
            }
            .into_any(),
        )
    };
    let has_code = move || {
        shown.with(|expansion| {
            expansion
                .as_ref()
                .is_some_and(|expansion| expansion.code.is_some())
        })
    };
    let on_licenses = move |event: web_sys::Event| {
        if details_open(&event)
            && licenses.with_untracked(Option::is_none)
            && let Some(shell) = shell_slot.get_value()
        {
            shell.licenses();
        }
    };

    view! {
                <p class="note">
                    "Edit the trait, its selectors and its methods: burn's own macro code (burn-backend-extension, compiled to WebAssembly and loaded when this box first opens) expands it as you type."
                </p>
                <div class="editor-toolbar">
                    <button type="button" class="share-button" on:click=move |_| start_from_form()>
                        "Start from the scenario's declaration"
                    </button>
                    <button
                        type="button"
                        class="share-button"
                        data-testid="editor-version-example"
                        on:click=move |_| {
                            version.set(MacroVersion::V0_23);
                            load(VERSION_EXAMPLE.to_owned());
                        }
                    >
                        "Start from an example the two versions route differently"
                    </button>
                    <span class="run-status" role="status" data-testid="editor-status">{status_text}</span>
                </div>
                <div class="editor">
                    <pre class="editor-gutter" aria-hidden="true" node_ref=gutter></pre>
                    <div class="editor-area">
                        <pre class="editor-overlay" aria-hidden="true" node_ref=overlay></pre>
                        <textarea
                            id="editor-text"
                            node_ref=field
                            aria-label="Your declaration"
                            aria-describedby="editor-keys"
                            spellcheck="false"
                            autocomplete="off"
                            autocapitalize="off"
                            wrap="off"
                            rows="12"
                            on:input=move |event| {
                                on_input(event);
                                read_selection();
                            }
                            on:keydown=on_keydown
                            on:select=move |_| read_selection()
                            on:keyup=move |_| read_selection()
                            on:mouseup=move |_| read_selection()
                            on:scroll=move |_| sync_scroll()
                        ></textarea>
                    </div>
                </div>
                <p id="editor-keys" class="note">"Tab indents; Esc, then Tab, leaves the editor."</p>
                <Show when=move || host.state.with(|state| state.omits_editor)>
                    <p class="note" data-testid="editor-link-limit">
                        {format!(
                            "The text is longer than a link carries ({} KiB): the page's link leaves it out, and this tab keeps it.",
                            MAX_URL_EDITOR_BYTES / 1024,
                        )}
                    </p>
                </Show>
                <Show when=move || cut.get()>
                    <p class="field-error" role="alert">
                        {format!(
                            "The editor keeps at most {} KiB: the text was cut there.",
                            crate::teach::editor::MAX_TEXT_BYTES / 1024,
                        )}
                    </p>
                </Show>
                {error_list}
                <p class="editor-verdict" data-testid="editor-verdict">{verdict_text}</p>
                <VersionChoice version expansion preview/>
                <Show
                    when=move || version.get() == MacroVersion::V0_22
                    fallback=move || view! { <VersionDiff expansion preview/> }
                >
                    {run_offer}
                    <EditorExport text expansion ops=op_methods/>
                </Show>
                <Show when=has_code>
                    <GeneratedCode
                        shown
                        text
                        current=Signal::derive(move || status.get() == Status::Expanded)
                        selected
                        focused_sources
                        select_text=Callback::new(select_place)
                    />
                </Show>
                <details class="editor-licenses" on:toggle=on_licenses>
                    <summary>"License of the compiled macro code (MIT OR Apache-2.0)"</summary>
                    <pre class="license-text">{move || licenses.get().unwrap_or_else(|| "Loading…".to_owned())}</pre>
                </details>
    }
}
