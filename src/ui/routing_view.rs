//! The generated routing for the selected op and declaration — the real rustc expansion of
//! burn's macro — with the arm the last run went through highlighted and scrolled into view; or,
//! with "compare with" set, its line diff against another declaration's, the arm still marked.

use std::collections::HashMap;

use leptos::html::Pre;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::{Change, Playground, use_playground};
use crate::client::machine::Reply;
use crate::model::outcome::{Outcome, Phase};
use crate::model::scenario::{Declaration, OpKind};
use crate::teach::routing::diff::routing_diff;
use crate::teach::routing::expanded;
use crate::teach::routing::highlight;
use crate::teach::routing::route_view::{Highlight, Observed, locate, locate_queued};
use crate::teach::words::present::declaration_label;

/// What the code box shows: an op's expansion under a declaration, maybe diffed against
/// another's.
type CodeKey = (OpKind, Declaration, Option<Declaration>);

/// What the code box shows, and the marks on it: the routing arm, and the `Fusion<B>` impl's
/// queueing when a queued kernel ran.
struct Shown {
    key: CodeKey,
    marks: Option<Highlight>,
    queued: Option<Highlight>,
}

/// How a highlight marks its lines: the attribute on the arm's lines, the test id of its
/// deciding lines.
const ROUTING_MARKS: (&str, &str) = ("data-arm", "routing-focus");
const QUEUED_MARKS: (&str, &str) = ("data-queued", "queued-focus");

/// A `<code>` element holding the highlighted expansion of `op` under `declaration`, or its diff
/// against `compared`'s.
fn code_element((op, declaration, compared): CodeKey) -> Option<web_sys::Element> {
    let code = web_sys::window()?.document()?.create_element("code").ok()?;
    let source = expanded::source(op, declaration).unwrap_or("");
    let html = match compared.and_then(|compared| routing_diff(op, declaration, compared)) {
        Some(diff) => {
            let old = compared
                .and_then(|compared| expanded::source(op, compared))
                .unwrap_or("");
            highlight::diff_to_html(
                &diff.lines,
                &highlight::highlight(source),
                &highlight::highlight(old),
            )
        }
        None => highlight::to_html(&highlight::highlight(source)),
    };
    code.set_inner_html(&html);
    Some(code)
}

/// The expansion of the selected op under the selected declaration, with the arm of the last
/// run marked (when that run was of this op and declaration) and brought into view.
#[component]
pub fn RoutingView() -> impl IntoView {
    let playground = use_playground();
    // Memos: typing changes the form but neither of these, so the view is left alone.
    let op = Memo::new(move |_| playground.form.with(|form| form.op));
    let declaration = Memo::new(move |_| playground.form.with(|form| form.declaration));
    // Comparing a declaration with itself shows no diff.
    let compared = Memo::new(move |_| {
        playground
            .form
            .with(|form| form.compare.filter(|compare| *compare != form.declaration))
    });
    let summary = Memo::new(move |_| {
        compared
            .get()
            .and_then(|compared| routing_diff(op.get(), declaration.get(), compared))
            .map(|diff| diff.summary)
    });
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
    // Under burn's fusion, the `Fusion<B>` impl's part that ran: marked when an implementation
    // recorded itself as a deferred call, i.e. the queue the impl registered the op with ran it.
    let queued = Memo::new(move |_| -> Option<Highlight> {
        let (op, declaration) = (op.get(), declaration.get());
        playground.last_run.with(|run| {
            let run = run.as_ref()?;
            if run.scenario.args.kind() != op || run.scenario.declaration != declaration {
                return None;
            }
            let impls = match &run.reply {
                Reply::Outcome(Outcome::Completed(completed)) => &completed.impls,
                Reply::Outcome(Outcome::Panicked(report)) | Reply::WorkerPanicked(report) => {
                    &report.impls
                }
                _ => return None,
            };
            impls
                .iter()
                .any(|call| call.phase == Phase::Deferred && call.op == op.name())
                .then(|| locate_queued(expanded::source(op, declaration)?, op))
                .flatten()
        })
    });
    let code_box = NodeRef::<Pre>::new();

    // The code box shows one `<code>` element per op and declaration, each built once (see
    // `highlight::to_html` for why from a string) and kept: switching back to a declaration seen
    // before moves its element back in instead of parsing its few thousand spans again. Then the
    // arm and its deciding lines are marked, and the first deciding line brought to the middle
    // of the box. Returns what it showed, so that the next run clears those marks first.
    let mut built: HashMap<CodeKey, web_sys::Element> = HashMap::new();
    Effect::new(move |previous: Option<Option<Shown>>| {
        let key = (op.get(), declaration.get(), compared.get());
        let marks = highlight.get();
        let queued = queued.get();
        let code_box = code_box.get()?;
        let previous = previous.flatten();
        if let Some(previous) = &previous {
            for (marks, kind) in [
                (&previous.marks, ROUTING_MARKS),
                (&previous.queued, QUEUED_MARKS),
            ] {
                if let Some(marks) = marks {
                    clear_marks(&code_box, marks, kind);
                }
            }
        }
        if previous.as_ref().map(|previous| previous.key) != Some(key) {
            let code = match built.get(&key) {
                Some(code) => code.clone(),
                None => {
                    let code = code_element(key)?;
                    built.insert(key, code.clone());
                    code
                }
            };
            code_box.set_text_content(None);
            code_box.append_child(&code).ok()?;
        }
        if let Some(queued) = &queued {
            set_marks(&code_box, queued, QUEUED_MARKS);
        }
        if let Some(marks) = &marks {
            set_marks(&code_box, marks, ROUTING_MARKS);
        }
        let first_focus = marks
            .as_ref()
            .and_then(|marks| marks.focus.first().copied());
        if let Some(line) = first_focus.and_then(|index| line_element(&code_box, index)) {
            scroll_to_middle(&code_box, &line);
        }
        show_scrolled_lines(&code_box);
        Some(Shown { key, marks, queued })
    });

    view! {
        <section class="panel routing" aria-labelledby="routing-heading">
            <h2 id="routing-heading">"The generated routing"</h2>
            <p class="note">
                "What " <code>{move || format!("#[backend_extension({})]", declaration.get().selectors())}</code>
                " generates for " <code>{move || op.get().name()}</code>
                ": the " <code>"impl … for burn::backend::Dispatch"</code>
                " as rustc expands it (" <code>"-Zunpretty=expanded"</code> ", formatted with rustfmt). "
                {move || routing_note(playground, highlight.get().is_some(), queued.get().is_some(), op.get(), declaration.get())}
            </p>
            <div class="compare-row">
                <label for="compare">"Compare with"</label>
                <select
                    id="compare"
                    on:change=move |event| {
                        let value = event_target_value(&event);
                        let compare = Declaration::ALL.iter().copied().find(|d| d.module() == value);
                        playground.edit(Change::Typing, move |form| form.compare = compare);
                    }
                >
                    <option value="" selected=move || compared.get().is_none()>"nothing (the code alone)"</option>
                    {move || Declaration::ALL
                        .iter()
                        .copied()
                        .filter(|other| *other != declaration.get())
                        .map(|other| view! {
                            <option value=other.module() selected=move || compared.get() == Some(other)>
                                {declaration_label(other)}
                            </option>
                        })
                        .collect_view()}
                </select>
            </div>
            {move || summary.get().map(|summary| view! {
                <p class="diff-summary" data-testid="diff-summary">
                    {summary}
                    " Lines marked + are only in this declaration's routing, − only in the one compared."
                </p>
            })}
            <pre
                class="code"
                node_ref=code_box
                tabindex="0"
                aria-label="Generated routing code"
                on:scroll=move |_| {
                    if let Some(code_box) = code_box.get_untracked() {
                        show_scrolled_lines(&code_box);
                    }
                }
            ></pre>
        </section>
    }
}

/// What the note above the code says the marks show, read from the last run: whether an arm was
/// located, whether the `Fusion<B>` impl's queueing is marked, and where a panic came from.
fn routing_note(
    playground: Playground,
    arm: bool,
    queued: bool,
    op: OpKind,
    declaration: Declaration,
) -> String {
    let queued_note = if queued {
        " In the impl for Fusion<B> further down, the line that queued the op and the call its queue ran later are marked."
    } else {
        ""
    };
    if arm {
        return format!(
            "The arm the last run went through is highlighted; its deciding lines are marked.{queued_note}"
        );
    }
    playground.last_run.with(|run| match run {
        Some(run) if run.scenario.args.kind() == op && run.scenario.declaration == declaration => match &run.reply {
            Reply::Outcome(Outcome::Completed(_)) => "The last run did not call the custom op (the builtin fix), so it went through no arm of this code.".to_owned(),
            Reply::Outcome(Outcome::Panicked(report)) | Reply::WorkerPanicked(report) => {
                if report.routing_tensor.is_some() {
                    // The op's `call` handed its tensor to the routing, and the panic's message
                    // is none of the routing's own.
                    format!("The last run called this code, and its panic is not one the routing raises (the card says where it came from), so no arm is marked.{queued_note}")
                } else {
                    "The last run panicked before it reached this code.".to_owned()
                }
            }
            _ => "The last run did not finish.".to_owned(),
        },
        _ => "Run the scenario to see the arm it goes through.".to_owned(),
    })
}

/// Line `index` of the code box.
fn line_element(code_box: &web_sys::HtmlElement, index: usize) -> Option<web_sys::HtmlElement> {
    let line = code_box
        .query_selector(&format!("[data-line=\"{index}\"]"))
        .ok()??;
    line.dyn_into().ok()
}

/// How many lines above and below the box's scrollport are painted whatever the page's scroll.
const SHOWN_MARGIN: usize = 24;

/// Marks the lines inside the box's scrollport (and a margin) `data-shown`, which the style
/// paints even while the box is off screen: elsewhere `content-visibility: auto` skips the lines
/// the page's viewport does not reach, and a capture of the whole page (a full-page screenshot,
/// print) would find the box blank. Every line is one line of text high (a diff's removed lines
/// too), so the scroll offset says which are in view.
fn show_scrolled_lines(code_box: &web_sys::HtmlElement) {
    let Some(first) = code_box
        .first_element_child()
        .and_then(|code| code.first_element_child())
    else {
        return;
    };
    let Some(height) = first
        .dyn_ref::<web_sys::HtmlElement>()
        .map(|line| f64::from(line.offset_height().max(1)))
    else {
        return;
    };
    let top = (f64::from(code_box.scroll_top()) / height) as usize;
    let visible = (f64::from(code_box.client_height()) / height).ceil() as usize;
    let shown = top.saturating_sub(SHOWN_MARGIN)..top + visible + SHOWN_MARGIN;
    let mut line = Some(first);
    let mut index = 0;
    while let Some(current) = line {
        let marked = current.has_attribute("data-shown");
        if shown.contains(&index) && !marked {
            let _ = current.set_attribute("data-shown", "");
        } else if !shown.contains(&index) && marked {
            let _ = current.remove_attribute("data-shown");
        }
        line = current.next_element_sibling();
        index += 1;
    }
}

/// Marks the lines of `marks`: the arm's lines get `line-arm` and the attribute `kind.0`, its
/// deciding lines `line-focus` and the test id `kind.1`.
fn set_marks(
    code_box: &web_sys::HtmlElement,
    marks: &Highlight,
    (attribute, test_id): (&str, &str),
) {
    for index in marks.arm.0..=marks.arm.1 {
        if let Some(line) = line_element(code_box, index) {
            line.set_class_name("line line-arm");
            let _ = line.set_attribute(attribute, "true");
        }
    }
    for &index in &marks.focus {
        if let Some(line) = line_element(code_box, index) {
            line.set_class_name("line line-focus");
            let _ = line.set_attribute("data-testid", test_id);
        }
    }
}

/// Takes the marks [`set_marks`] put on the lines of `marks` off again.
fn clear_marks(code_box: &web_sys::HtmlElement, marks: &Highlight, (attribute, _): (&str, &str)) {
    for index in (marks.arm.0..=marks.arm.1).chain(marks.focus.iter().copied()) {
        if let Some(line) = line_element(code_box, index) {
            line.set_class_name("line");
            let _ = line.remove_attribute(attribute);
            let _ = line.remove_attribute("data-testid");
        }
    }
}

/// Scrolls the code box (the box, not the page) so that `line` is in its middle. Positions come
/// from the layout boxes: `offsetTop` would be measured from the nearest positioned ancestor, not
/// from the code box.
fn scroll_to_middle(code_box: &web_sys::HtmlElement, line: &web_sys::HtmlElement) {
    let line_top = line.get_bounding_client_rect().top();
    let box_top = code_box.get_bounding_client_rect().top();
    let within = line_top - box_top + f64::from(code_box.scroll_top());
    let centred =
        within - f64::from(code_box.client_height()) / 2.0 + f64::from(line.offset_height()) / 2.0;
    code_box.set_scroll_top(centred.max(0.0) as i32);
    code_box.set_scroll_left(0);
}
