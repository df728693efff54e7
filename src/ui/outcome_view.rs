//! The outcome of the last run: values, gradient and route; or the panic burn raised, explained,
//! with its fixes. Everything here is read from what the run recorded.

use std::sync::Arc;

use leptos::prelude::*;

use super::state::{Change, LastRun, use_playground};
use super::tensor_view::BigTensorRows;
use crate::client::machine::Reply;
use crate::model::outcome::{Completed, Outcome, PanicReport};
use crate::model::scenario::{Declaration, OpKind};
use crate::teach::form::OpTexts;
use crate::teach::numbers::{index_text, shape_text, values_text};
use crate::teach::routing::diagnostics::{
    fusion_diagnostic, list_fusion_fix, list_fusion_fix_text,
};
use crate::teach::words::explain::{FixContext, PanicKind, fixes};
use crate::teach::words::present::{
    backend_text, flattened_shape_note, impl_text, missing_gradient_reason, panic_location_text,
    route_explanation, route_title,
};

/// The outcome panel: the last run's card, marked as out of date while a field does not parse.
#[component]
pub fn OutcomePanel() -> impl IntoView {
    let playground = use_playground();
    let pending = playground.pending;
    let running_note = playground.running_note;
    let stale = move || !playground.input_errors.with(Vec::is_empty);
    view! {
        <section
            class="panel"
            aria-labelledby="outcome-heading"
            aria-live="polite"
            aria-busy=move || pending.get().to_string()
            data-runs=move || playground.runs_shown.get()
        >
            <h2 id="outcome-heading">"Outcome"</h2>
            <p class="run-status" data-testid="run-status">
                {move || if running_note.get() { "Running…" } else { "" }}
            </p>
            {move || (stale() && playground.last_run.with(Option::is_some)).then(|| view! {
                <p class="stale-note" data-testid="stale-note" role="status">
                    "A field above does not parse, so nothing ran: this is the outcome of the previous valid scenario."
                </p>
            })}
            <div class="outcome" class:outcome-stale=stale>
                {move || playground.last_run.get().map(|run| view! { <OutcomeCard run/> })}
            </div>
        </section>
    }
}

/// How a panic ended for the engine's worker.
enum PanicEnd {
    Caught,
    WorkerStopped,
}

/// The card for one finished run.
#[component]
fn OutcomeCard(run: Arc<LastRun>) -> impl IntoView {
    let LastRun {
        scenario,
        reply,
        round_trip_ms,
    } = &*run;
    let round_trip_ms = *round_trip_ms;
    let reply_kind = match reply {
        Reply::WorkerPanicked(_) => PanicEnd::WorkerStopped,
        _ => PanicEnd::Caught,
    };
    match reply.clone() {
        Reply::Outcome(Outcome::Completed(completed)) => {
            view! { <CompletedCard completed=*completed declaration=scenario.declaration round_trip_ms/> }.into_any()
        }
        // Caught by the engine (natively), or trapping the worker (in the browser).
        Reply::Outcome(Outcome::Panicked(report)) | Reply::WorkerPanicked(report) => {
            let worker_survived = matches!(reply_kind, PanicEnd::Caught);
            // Whether there is a GPU is set by the card from what the engine says now.
            let context = FixContext::single_run(scenario, false);
            view! { <PanicCard report context worker_survived/> }.into_any()
        }
        Reply::Outcome(Outcome::NotBuilt { fusion }) => view! {
            <NotBuiltCard op=scenario.args.kind() declaration=scenario.declaration fusion/>
        }
        .into_any(),
        Reply::Outcome(Outcome::Failed(message)) | Reply::Failed(message) => view! {
            <article class="card card-failed" data-outcome="failed">
                <h2>"The run did not finish"</h2>
                <p class="failure-message" data-testid="failure-message">{message}</p>
            </article>
        }
        .into_any(),
        // Gallery snippets are shown on their cards, training on its panel, superseded runs
        // nowhere.
        Reply::Case(_) | Reply::Trained(_) | Reply::Superseded => ().into_any(),
    }
}

/// A run that completed: its route, values, gradient, timings and the implementations that ran;
/// for a flattened declared shape that changed nothing, the note that says so and a 2-D input
/// one click away.
#[component]
fn CompletedCard(
    completed: Completed,
    declaration: Declaration,
    round_trip_ms: f64,
) -> impl IntoView {
    let playground = use_playground();
    let flattened = flattened_shape_note(declaration, &completed).map(|note| {
        let use_two_dimensions = move |_| {
            let mut form = playground.form.get_untracked();
            let op = form.op;
            form.texts_mut().tensor = OpTexts::two_dimensional(op).into();
            playground.load_form(form);
        };
        view! {
            <p class="note" data-testid="flattened-shape-note">{note}</p>
            <button type="button" class="fix-button" data-testid="use-two-dimensions" on:click=use_two_dimensions>
                "Try a 2-D input"
            </button>
        }
    });
    let difference = completed.output_difference;
    let output_at = difference_place(
        &completed.output,
        completed.output_difference_at,
        "output-difference-at",
    );
    let gradient_rows = completed.gradient.as_ref().map(|gradient| {
        let reference = completed.reference_gradient.as_ref();
        let difference = completed.gradient_difference;
        let at = difference_place(gradient, completed.gradient_difference_at, "gradient-difference-at");
        view! {
            <dt>"∂ sum(y) / ∂x"</dt>
            <dd><code data-testid="gradient-values">{values_text(&gradient.values, gradient.elements())}</code></dd>
            <BigTensorRows tensor=gradient.clone() testid="gradient" file="gradient.csv"/>
            <dt>"Reference gradient"</dt>
            <dd><code data-testid="reference-gradient-values">{reference.map(|r| values_text(&r.values, r.elements())).unwrap_or_default()}</code></dd>
            <dt>"Max |difference|"</dt>
            <dd><span data-testid="gradient-difference">{difference.map(|d| d.to_string()).unwrap_or_default()}</span>{at}</dd>
        }
    });
    let no_gradient = missing_gradient_reason(&completed);
    let timings = completed.timings;
    let backend = backend_text(completed.backend);
    let impls = if completed.impls.is_empty() {
        view! { <p class="note">"No custom op implementation ran."</p> }.into_any()
    } else {
        view! {
            <ol class="impls" data-testid="impls">
                {completed.impls.iter().map(|call| view! { <li><code>{impl_text(call)}</code></li> }).collect_view()}
            </ol>
        }
        .into_any()
    };
    view! {
        <article class="card card-ok" data-outcome="completed">
            <h2>"Ran: " <span data-testid="route">{route_title(completed.route)}</span></h2>
            <p data-testid="route-explanation">{route_explanation(&completed)}</p>
            <dl class="facts">
                <dt>"Output y"</dt>
                <dd><code data-testid="output-values">{values_text(&completed.output.values, completed.output.elements())}</code></dd>
                <dt>"Shape, dtype"</dt>
                <dd data-testid="output-meta">{format!("{} {}", shape_text(&completed.output.shape), completed.output.dtype)}</dd>
                <BigTensorRows tensor=completed.output.clone() testid="output" file="y.csv"/>
                <dt>"Reference (builtin ops, CPU)"</dt>
                <dd><code data-testid="reference-values">{values_text(&completed.reference.values, completed.reference.elements())}</code></dd>
                <dt>"Max |difference|"</dt>
                <dd><span data-testid="output-difference">{difference.map(|d| d.to_string()).unwrap_or_default()}</span>{output_at}</dd>
                {gradient_rows}
                <dt>"Backend"</dt>
                <dd data-testid="device">{format!("{backend} · {}", completed.device)}</dd>
                <dt>"Time"</dt>
                <dd
                    data-testid="timing"
                    data-engine-ms=format!("{:.2}", completed.elapsed_ms)
                    data-call-ms=format!("{:.2}", timings.call_ms)
                    data-reference-ms=format!("{:.2}", timings.reference_ms)
                    data-read-ms=format!("{:.2}", timings.read_ms)
                    data-compare-ms=format!("{:.2}", timings.compare_ms)
                >
                    {format!("{:.1} ms in the engine, {:.1} ms round trip", completed.elapsed_ms, round_trip_ms)}
                    <br/>
                    <small class="note">{format!(
                        "call {:.1} · reference {:.1} · wait and read back {:.1} · compare {:.1} ms",
                        timings.call_ms, timings.reference_ms, timings.read_ms, timings.compare_ms
                    )}</small>
                </dd>
            </dl>
            {no_gradient.map(|reason| view! { <p class="note" data-testid="no-gradient">{reason}</p> })}
            {flattened}
            <h3>"Implementations that ran"</h3>
            <p class="note">"Each implementation records itself when it runs; this list is what executed."</p>
            {impls}
        </article>
    }
}

/// `at [12, 3]`: where a tensor with more than one value differs most from its reference.
fn difference_place(
    tensor: &crate::model::outcome::TensorView,
    at: Option<usize>,
    testid: &'static str,
) -> Option<impl IntoView + use<>> {
    let at = at.filter(|_| tensor.elements() > 1)?;
    Some(
        view! { " " <span data-testid=testid>{format!("at {}", index_text(&tensor.shape, at))}</span> },
    )
}

/// A panic: the message and location as captured, what it means, and the fixes, in `context`
/// (the op, the declaration whose code ran, where it was called). `worker_survived`: the panic
/// was caught inside the engine (natively) rather than stopping its worker. `then` runs after a
/// fix button applied its fix (the training panel trains again; a single run re-runs by itself).
#[component]
pub fn PanicCard(
    report: PanicReport,
    context: FixContext,
    worker_survived: bool,
    #[prop(optional)] then: Option<Callback<()>>,
) -> impl IntoView {
    let playground = use_playground();
    let location = report.location.as_ref().map(panic_location_text);
    let kind = PanicKind::of(&report, context.declaration);
    // The fixes depend on whether the engine has a GPU (a replacement worker may still be
    // starting when the card first shows).
    let fix_kind = kind.clone();
    let fix_list = move || {
        let context = FixContext {
            gpu_available: playground.gpu_known.get().unwrap_or(false),
            ..context.clone()
        };
        let offers = fixes(&fix_kind, &context);
        (!offers.is_empty()).then(|| {
            view! {
                <h3>"Fixes"</h3>
                <div class="fixes">
                    {offers
                        .into_iter()
                        .map(|offer| {
                            let actions = offer.actions.clone();
                            let label = offer.label.clone();
                            let changes = offer
                                .changes
                                .into_iter()
                                .map(|change| {
                                    view! {
                                        <div class="before-after" data-testid="fix-change">
                                            <div>
                                                <span class="before-after-label">"Before"</span>
                                                <pre class="snippet" tabindex="0"><code data-testid="fix-before">{change.before}</code></pre>
                                            </div>
                                            <div>
                                                <span class="before-after-label">"After"</span>
                                                <pre class="snippet" tabindex="0"><code data-testid="fix-after">{change.after}</code></pre>
                                            </div>
                                        </div>
                                    }
                                })
                                .collect_view();
                            view! {
                                <div class="fix" data-fix=label>
                                    <button type="button" class="fix-button" on:click=move |_| {
                                        playground.apply_fix(&actions);
                                        if let Some(then) = then {
                                            then.run(());
                                        }
                                    }>
                                        {offer.label}
                                    </button>
                                    <p class="note">{offer.description}</p>
                                    {changes}
                                </div>
                            }
                        })
                        .collect_view()}
                </div>
            }
        })
    };
    // What recorded itself before the panic: under fusion, whether the queued kernel had run.
    let ran_before = (!report.impls.is_empty()).then(|| {
        view! {
            <h3>"Implementations that ran before the panic"</h3>
            <ol class="impls" data-testid="panic-impls">
                {report.impls.iter().map(|call| view! { <li><code>{impl_text(call)}</code></li> }).collect_view()}
            </ol>
        }
    });
    view! {
        <article class="card card-panic" data-outcome="panicked" role="alert">
            <h2 data-testid="panic-heading">{match report.backend {
                Some(backend) => format!("burn panicked on {}", backend_text(backend)),
                None => "burn panicked".to_owned(),
            }}</h2>
            <pre class="panic-message" data-testid="panic-message">{report.message.clone()}</pre>
            {location.map(|location| view! {
                <p>"at " <code data-testid="panic-location">{location}</code></p>
            })}
            <p class="note" data-testid="panic-recovery">
                {if worker_survived {
                    "Caught inside the engine: the same engine runs the next scenario. Your inputs and toggles are unchanged."
                } else {
                    "The panic stopped the engine's worker; a new worker took over. Your inputs and toggles are unchanged."
                }}
            </p>
            <h3>"What it means"</h3>
            <p data-testid="panic-meaning">{kind.meaning()}</p>
            {kind.surprise().map(|surprise| view! { <p class="surprise" data-testid="panic-surprise">{surprise}</p> })}
            {ran_before}
            {fix_list}
        </article>
    }
}

/// A declaration that does not build in this engine: nothing ran; what rustc says about it (a
/// real rustc run, captured by the tests), and the way back to a declaration that builds.
#[component]
pub fn NotBuiltCard(op: OpKind, declaration: Declaration, fusion: bool) -> impl IntoView {
    let playground = use_playground();
    let diagnostic = fusion.then(|| fusion_diagnostic(op, declaration)).flatten();
    let with_fusion = list_fusion_fix(op, declaration);
    view! {
        <article class="card card-failed" data-outcome="not-built">
            <h2>"This declaration does not compile"</h2>
            <p data-testid="not-built">{format!(
                "With burn built {} its fusion feature, `{}` declared #[backend_extension({})] does not build, so nothing ran. rustc says:",
                if fusion { "with" } else { "without" },
                op.name(),
                declaration.selectors()
            )}</p>
            <pre class="snippet" tabindex="0" data-testid="rustc-diagnostic"><code>{diagnostic.unwrap_or("(no diagnostic was captured for this declaration)")}</code></pre>
            {with_fusion.map(|listed| view! {
                <div class="fix" data-fix="List Fusion">
                    <button type="button" class="fix-button" on:click=move |_| {
                        playground.edit(Change::Toggle, move |form| form.declaration = listed);
                    }>"List Fusion"</button>
                    <p class="note">{list_fusion_fix_text(op, listed)}</p>
                </div>
            })}
        </article>
    }
}
