//! The code burn's macro generated for the editor's text, and where each of its lines comes
//! from: the lines that carry what the person selects in the text field are marked, the impls
//! and arms that serve one selector are labelled, and a focused line says what of the typed text
//! it carries (marked in the field's highlighted copy too) or that the macro wrote it alone.
//! All of it is read from the spans the macro gave its tokens (`crate::teach::editor::sources`).
//!
//! The box is one stop of the Tab order; inside it ↑ ↓ Home End move between lines, and Enter
//! selects in the field the text the focused line carries.

use std::ops::Range;

use leptos::html::Pre;
use leptos::prelude::*;
use macro_expander::Expansion;
use wasm_bindgen::JsCast;

use crate::teach::editor::sources::{carrying_lines, code_html, line_origin, selection_words};
use crate::teach::routing::highlight;

/// The line index a focused element of the box stands for.
fn line_index(element: &web_sys::Element) -> Option<usize> {
    element
        .closest(".line[data-line]")
        .ok()
        .flatten()?
        .get_attribute("data-line")?
        .parse()
        .ok()
}

/// The generated code, with where its lines come from.
///
/// `current` says whether `shown` answers the text in the field now (an older answer's bytes
/// point elsewhere); `selected` is the field's selection in bytes; `focused_sources` receives the
/// bytes the focused line carries; `select_text` selects bytes in the field.
#[component]
pub fn GeneratedCode(
    shown: Memo<Option<Expansion>>,
    text: RwSignal<String>,
    current: Signal<bool>,
    selected: RwSignal<Option<Range<usize>>>,
    focused_sources: RwSignal<Vec<Range<usize>>>,
    select_text: Callback<Range<usize>>,
) -> impl IntoView {
    let code_box = NodeRef::<Pre>::new();
    let focused = RwSignal::new(None::<usize>);
    let lines = Memo::new(move |_| {
        shown.with(|expansion| {
            expansion
                .as_ref()
                .and_then(|expansion| expansion.code.as_deref())
                .map(highlight::highlight)
        })
    });
    // What the selection is, when it is of the text the shown answer expanded.
    let selection = move || {
        selected
            .get()
            .filter(|bytes| !bytes.is_empty() && current.get())
    };
    let carrying = Memo::new(move |_| {
        let bytes = selection()?;
        shown.with(|expansion| Some(carrying_lines(expansion.as_ref()?, &bytes)))
    });
    let html = move || {
        let carrying = carrying.get().unwrap_or_default();
        lines.with(|lines| {
            shown.with(|expansion| Some(code_html(lines.as_ref()?, expansion.as_ref()?, &carrying)))
        })
    };
    // A new answer draws the box again: no line of it is focused.
    Effect::new(move |_| {
        shown.track();
        focused.set(None);
        focused_sources.set(Vec::new());
    });
    let selection_text = move || {
        let bytes = selection()?;
        carrying.with(|carrying| {
            let carrying = carrying.as_deref()?;
            text.with(|text| {
                shown.with(|expansion| {
                    Some(selection_words(expansion.as_ref()?, text, &bytes, carrying))
                })
            })
        })
    };
    let origin_text = move || {
        let line = focused.get()?;
        text.with(|text| shown.with(|expansion| Some(line_origin(expansion.as_ref()?, text, line))))
    };
    let sources_of = move |line: usize| {
        if !current.get_untracked() {
            return Vec::new();
        }
        shown.with_untracked(|expansion| {
            expansion
                .as_ref()
                .and_then(|expansion| expansion.line_sources.get(line).cloned())
                .unwrap_or_default()
        })
    };
    let on_focusin = move |event: web_sys::FocusEvent| {
        let Some(line) = event
            .target()
            .and_then(|target| target.dyn_into::<web_sys::Element>().ok())
            .and_then(|element| line_index(&element))
        else {
            return;
        };
        focused.set(Some(line));
        focused_sources.set(sources_of(line));
    };
    let on_focusout = move |event: web_sys::FocusEvent| {
        let inside = event
            .related_target()
            .and_then(|target| target.dyn_into::<web_sys::Node>().ok())
            .zip(code_box.get_untracked())
            .is_some_and(|(node, code_box)| code_box.contains(Some(&node)));
        if !inside {
            focused_sources.set(Vec::new());
        }
    };
    let on_keydown = move |event: web_sys::KeyboardEvent| {
        let Some(code_box) = code_box.get_untracked() else {
            return;
        };
        let count = shown.with_untracked(|expansion| {
            expansion
                .as_ref()
                .map_or(0, |expansion| expansion.line_sources.len())
        });
        if count == 0 {
            return;
        }
        let at = document()
            .active_element()
            .filter(|active| code_box.contains(Some(active)))
            .and_then(|active| line_index(&active));
        let next = match event.key().as_str() {
            "ArrowDown" => at.map_or(0, |line| (line + 1).min(count - 1)),
            "ArrowUp" => at.map_or(0, |line| line.saturating_sub(1)),
            "Home" => 0,
            "End" => count - 1,
            "Enter" => {
                let sources = at.map(sources_of).unwrap_or_default();
                if let (Some(first), Some(last)) = (sources.first(), sources.last()) {
                    event.prevent_default();
                    select_text.run(first.start..last.end);
                }
                return;
            }
            _ => return,
        };
        event.prevent_default();
        if let Some(line) = code_box
            .query_selector(&format!(".line[data-line=\"{next}\"]"))
            .ok()
            .flatten()
            .and_then(|line| line.dyn_into::<web_sys::HtmlElement>().ok())
        {
            let _ = line.focus();
        }
    };

    view! {
        <details class="editor-code" open>
            <summary>"The code the macro generated, formatted by prettyplease"</summary>
            <p class="note" id="editor-code-keys">
                "Select text in your declaration to mark the generated lines that carry it (from the spans burn's macro gives its tokens). In the code, ↑ and ↓ move between lines and each says where it came from; Enter selects in your declaration the text it carries."
            </p>
            <p class="editor-carried" role="status" data-testid="editor-carried">{selection_text}</p>
            <pre
                class="code"
                data-testid="editor-code"
                tabindex="0"
                aria-label="The generated code"
                aria-describedby="editor-code-keys"
                node_ref=code_box
                on:focusin=on_focusin
                on:focusout=on_focusout
                on:keydown=on_keydown
            >
                <code inner_html=html></code>
            </pre>
            <p class="editor-line-origin" role="status" data-testid="editor-line-origin">{origin_text}</p>
        </details>
    }
}
