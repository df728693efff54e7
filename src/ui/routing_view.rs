//! The generated routing for the selected op and declaration — the real rustc expansion of
//! burn's macro — with the arm the last run went through highlighted and scrolled into view.

use leptos::html::Pre;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::use_playground;
use crate::client::machine::Reply;
use crate::model::outcome::Outcome;
use crate::teach::expanded;
use crate::teach::highlight::{self, TokenKind};
use crate::teach::route_view::{Highlight, Observed, locate};

fn token_class(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::Keyword => "tok-keyword",
        TokenKind::Type => "tok-type",
        TokenKind::Ident => "tok-ident",
        TokenKind::Macro => "tok-macro",
        TokenKind::Str => "tok-str",
        TokenKind::Number => "tok-number",
        TokenKind::Comment => "tok-comment",
        TokenKind::Lifetime => "tok-lifetime",
        TokenKind::Plain => "tok-plain",
    }
}

/// The expansion of the selected op under the selected declaration, with the arm of the last
/// run marked (when that run was of this op and declaration) and brought into view.
#[component]
pub fn RoutingView() -> impl IntoView {
    let playground = use_playground();
    // Memos: typing changes the form but neither of these, so the view is left alone.
    let op = Memo::new(move |_| playground.form.with(|form| form.op));
    let declaration = Memo::new(move |_| playground.form.with(|form| form.declaration));
    let highlight = Memo::new(move |_| -> Option<Highlight> {
        let (op, declaration) = (op.get(), declaration.get());
        playground.last_run.with(|run| {
            let run = run.as_ref()?;
            if run.scenario.args.kind() != op || run.scenario.declaration != declaration {
                return None;
            }
            let observed = match &run.reply {
                Reply::Outcome(Outcome::Completed(completed)) => Observed::Ran(completed.route),
                Reply::Outcome(Outcome::Panicked(report)) | Reply::WorkerPanicked(report) => {
                    Observed::from_panic(&report.message)?
                }
                _ => return None,
            };
            let source = expanded::source(op, declaration)?;
            locate(source, declaration, run.scenario.backend, observed)
        })
    });
    let code_box = NodeRef::<Pre>::new();
    let source = Memo::new(move |_| expanded::source(op.get(), declaration.get()).unwrap_or(""));
    let lines = Memo::new(move |_| highlight::highlight(source.get()));

    // Bring the first deciding line to the middle of the code box (the box scrolls, not the
    // page). Positions come from the layout boxes: `offsetTop` would be measured from the
    // nearest positioned ancestor, not from the code box.
    Effect::new(move |_| {
        let Some(target) = highlight
            .get()
            .and_then(|highlight| highlight.focus.first().copied())
        else {
            return;
        };
        lines.track();
        let Some(code_box) = code_box.get() else {
            return;
        };
        let selector = format!("[data-line=\"{target}\"]");
        let Ok(Some(line)) = code_box.query_selector(&selector) else {
            return;
        };
        let Ok(line) = line.dyn_into::<web_sys::HtmlElement>() else {
            return;
        };
        let line_top = line.get_bounding_client_rect().top();
        let box_top = code_box.get_bounding_client_rect().top();
        let within = line_top - box_top + f64::from(code_box.scroll_top());
        let centred = within - f64::from(code_box.client_height()) / 2.0
            + f64::from(line.offset_height()) / 2.0;
        code_box.set_scroll_top(centred.max(0.0) as i32);
        code_box.set_scroll_left(0);
    });

    let rendered = move || {
        let marks = highlight.get();
        lines
            .get()
            .into_iter()
            .enumerate()
            .map(|(index, tokens)| {
                let in_arm = marks.as_ref().is_some_and(|m| (m.arm.0..=m.arm.1).contains(&index));
                let focus = marks.as_ref().is_some_and(|m| m.focus.contains(&index));
                let class = match (in_arm, focus) {
                    (_, true) => "line line-focus",
                    (true, false) => "line line-arm",
                    _ => "line",
                };
                view! {
                    <span
                        class=class
                        data-line=index
                        data-testid=focus.then_some("routing-focus")
                        data-arm=in_arm.then_some("true")
                    >
                        <span class="line-number" aria-hidden="true">{index + 1}</span>
                        {tokens
                            .into_iter()
                            .map(|token| view! { <span class=token_class(token.kind)>{token.text}</span> })
                            .collect_view()}
                        "\n"
                    </span>
                }
            })
            .collect_view()
    };

    view! {
        <section class="panel routing" aria-labelledby="routing-heading">
            <h2 id="routing-heading">"The generated routing"</h2>
            <p class="note">
                "What " <code>{move || format!("#[backend_extension({})]", declaration.get().selectors())}</code>
                " generates for " <code>{move || op.get().name()}</code>
                ": the " <code>"impl … for burn::backend::Dispatch"</code>
                " as rustc expands it (" <code>"-Zunpretty=expanded"</code> ", formatted with rustfmt). "
                {move || if highlight.get().is_some() {
                    "The arm the last run went through is highlighted; its deciding lines are marked."
                } else {
                    "Run the scenario to see the arm it goes through."
                }}
            </p>
            <pre class="code" node_ref=code_box tabindex="0" aria-label="Generated routing code">
                <code>{rendered}</code>
            </pre>
        </section>
    }
}
