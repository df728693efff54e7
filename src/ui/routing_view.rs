//! The generated routing for the selected op and declaration — the real rustc expansion of
//! burn's macro — with the arm the last run went through highlighted.

use leptos::html::Pre;
use leptos::prelude::*;

use crate::expanded;
use crate::highlight::{self, TokenKind};
use crate::route_view::Highlight;
use crate::scenario::{Declaration, OpKind};

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

/// The expansion of `op` under `declaration`, with `highlight` (from the last run, when it ran
/// this op and declaration) marked and scrolled into view.
#[component]
pub fn RoutingView(
    op: Signal<OpKind>,
    declaration: Signal<Declaration>,
    highlight: Signal<Option<Highlight>>,
) -> impl IntoView {
    let code_box = NodeRef::<Pre>::new();
    let source = Memo::new(move |_| expanded::source(op.get(), declaration.get()).unwrap_or(""));
    let lines = Memo::new(move |_| highlight::highlight(source.get()));

    // Bring the first decisive line into the middle of the code box (not the page).
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
        if let Ok(Some(line)) = code_box.query_selector(&selector) {
            use wasm_bindgen::JsCast;
            if let Ok(line) = line.dyn_into::<web_sys::HtmlElement>() {
                let top = line.offset_top() - code_box.client_height() / 2;
                code_box.set_scroll_top(top.max(0));
            }
        }
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
