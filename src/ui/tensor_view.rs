//! A tensor too long to read value by value. Its first values are shown with the run; these rows
//! add what a person reads of the rest (the summary the worker computed over every value, the
//! last values), pages of every value on request, and the whole tensor as a CSV file. Only the
//! page that is open becomes DOM: a million values cost the page a few rows.

use std::sync::Arc;

use leptos::prelude::*;

use super::browser::{details_open, download};
use crate::model::outcome::{TensorView, Values};
use crate::teach::numbers::{
    csv_text, group_thousands, last_values_text, page_count, page_label, page_lines, summary_text,
};

/// The rows `tensor` adds to the outcome's facts (none for a tensor sent whole: the worker keeps
/// every value, with their summary, only for one cut short). `testid`
/// prefixes the rows' test ids; `file` names its download.
#[component]
pub fn BigTensorRows(
    tensor: TensorView,
    testid: &'static str,
    file: &'static str,
) -> impl IntoView {
    let (Some(summary), Some(_)) = (tensor.summary, &tensor.all_values) else {
        return ().into_any();
    };
    let float = matches!(tensor.values, Values::Float(_));
    let summary = summary_text(&summary, float);
    let last = last_values_text(&tensor);
    let tensor = Arc::new(tensor);
    view! {
        <dt>"Summary"</dt>
        <dd data-testid=format!("{testid}-summary")>{summary}</dd>
        <dt>"Last values"</dt>
        <dd><code data-testid=format!("{testid}-last")>{last}</code></dd>
        <dt>"Every value"</dt>
        <dd>
            <ValuesBrowser tensor=tensor.clone() testid/>
            <Download tensor testid file/>
        </dd>
    }
    .into_any()
}

/// Every value, a page at a time, drawn only while the box is open.
#[component]
fn ValuesBrowser(tensor: Arc<TensorView>, testid: &'static str) -> impl IntoView {
    let elements = tensor.elements();
    let pages = page_count(elements);
    let open = RwSignal::new(false);
    let page = RwSignal::new(0usize);
    let lines = {
        let tensor = tensor.clone();
        move || {
            page_lines(&tensor, page.get())
                .into_iter()
                .map(|(index, values)| {
                    view! { <span class="values-line"><span class="values-index">{index}</span>" "{values}</span> }
                })
                .collect_view()
        }
    };
    let go = move |to: usize| move |_| page.set(to.min(pages - 1));
    // Outside `view!`: its parser reads `>` in an attribute's closure as the end of the tag.
    let at_first = move || page.get() == 0;
    let at_last = move || page.get() + 1 >= pages;
    view! {
        <details
            class="values-browser"
            data-testid=format!("{testid}-browse")
            on:toggle=move |event: web_sys::Event| open.set(details_open(&event))
        >
            <summary>{format!("Browse all {} values", group_thousands(elements))}</summary>
            {move || open.get().then(|| view! {
                <div class="values-pager" role="group" aria-label="Pages of values">
                    <button type="button" on:click=go(0) prop:disabled=at_first>"First"</button>
                    <button
                        type="button"
                        on:click=move |_| page.update(|page| *page = page.saturating_sub(1))
                        prop:disabled=at_first
                    >"Previous"</button>
                    <span data-testid=format!("{testid}-page-label") aria-live="polite">
                        {move || page_label(page.get(), elements)}
                    </span>
                    <button
                        type="button"
                        data-testid=format!("{testid}-next")
                        on:click=move |_| page.update(|page| *page = (*page + 1).min(pages - 1))
                        prop:disabled=at_last
                    >"Next"</button>
                    <button
                        type="button"
                        data-testid=format!("{testid}-last-page")
                        on:click=go(pages - 1)
                        prop:disabled=at_last
                    >"Last"</button>
                </div>
                <code class="values-page" data-testid=format!("{testid}-page")>{lines.clone()}</code>
            })}
        </details>
    }
}

/// The whole tensor as a CSV file, written when the button is pressed.
#[component]
fn Download(tensor: Arc<TensorView>, testid: &'static str, file: &'static str) -> impl IntoView {
    let status = RwSignal::new(None::<String>);
    let elements = tensor.elements();
    let on_click = move |_| {
        status.set(Some(match download(file, csv_text(&tensor).as_bytes()) {
            Ok(()) => format!("Downloaded {file}."),
            Err(error) => format!("The download did not start: {error:?}"),
        }));
    };
    view! {
        <div class="run-row">
            <button type="button" class="fix-button" data-testid=format!("{testid}-download") on:click=on_click>
                {format!("Download all {} values ({file})", group_thousands(elements))}
            </button>
            <span class="note" role="status">{move || status.get()}</span>
        </div>
    }
}
