//! The outcome of the last run: values, gradient and route; or the panic burn raised.

use leptos::prelude::*;

use super::engine_client::RunReply;
use crate::explain::{FixAction, PanicKind, fixes};
use crate::outcome::{Completed, Outcome, PanicReport};
use crate::present::{
    impl_text, missing_gradient_reason, route_explanation, route_title, shape_text, short_path,
    values_text,
};
use crate::scenario::{BackendChoice, Scenario};

/// A finished run, with the scenario it ran.
#[derive(Clone, Debug, PartialEq)]
pub struct LastRun {
    /// What was run (as sent; the backend may have been switched to the CPU).
    pub scenario: Scenario,
    /// How it ended.
    pub reply: RunReply,
    /// From the request to the answer, measured on the page, in milliseconds.
    pub round_trip_ms: f64,
    /// The parameter as the user typed it (for the fixes' snippets).
    pub param_text: String,
}

/// The outcome card for `run`; fix buttons call `on_fix`.
#[component]
pub fn OutcomeView(run: LastRun, on_fix: Callback<FixAction>) -> impl IntoView {
    let LastRun {
        scenario,
        reply,
        round_trip_ms,
        param_text,
    } = run;
    match reply {
        RunReply::Outcome(Outcome::Completed(completed)) => {
            view! { <CompletedCard scenario completed round_trip_ms/> }.into_any()
        }
        RunReply::Outcome(Outcome::Panicked(report)) | RunReply::Panicked(report) => {
            view! { <PanicCard report scenario param_text on_fix/> }.into_any()
        }
        RunReply::Outcome(Outcome::Failed(message)) | RunReply::Crashed(message) => view! {
            <article class="card card-failed" data-outcome="failed">
                <h2>"The run did not finish"</h2>
                <p class="failure-message" data-testid="failure-message">{message}</p>
            </article>
        }
        .into_any(),
        // Gallery snippets are shown on their cards, superseded runs nowhere.
        RunReply::Case(_) | RunReply::Superseded => ().into_any(),
    }
}

#[component]
fn CompletedCard(scenario: Scenario, completed: Completed, round_trip_ms: f64) -> impl IntoView {
    let difference = completed.output_difference;
    let gradient_rows = completed.gradient.as_ref().map(|gradient| {
        let reference = completed.reference_gradient.as_ref();
        let difference = completed.gradient_difference;
        view! {
            <dt>"∂ sum(y) / ∂x"</dt>
            <dd><code data-testid="gradient-values">{values_text(&gradient.values, gradient.elements())}</code></dd>
            <dt>"Reference gradient"</dt>
            <dd><code data-testid="reference-gradient-values">{reference.map(|r| values_text(&r.values, r.elements())).unwrap_or_default()}</code></dd>
            <dt>"Max |difference|"</dt>
            <dd data-testid="gradient-difference">{difference.map(|d| d.to_string()).unwrap_or_default()}</dd>
        }
    });
    let no_gradient = missing_gradient_reason(&scenario, &completed);
    let backend = match completed.backend {
        BackendChoice::Gpu => "WebGPU",
        BackendChoice::Cpu => "CPU",
    };
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
            <p>{route_explanation(completed.route)}</p>
            <dl class="facts">
                <dt>"Output y"</dt>
                <dd><code data-testid="output-values">{values_text(&completed.output.values, completed.output.elements())}</code></dd>
                <dt>"Shape, dtype"</dt>
                <dd data-testid="output-meta">{format!("{} {}", shape_text(&completed.output.shape), completed.output.dtype)}</dd>
                <dt>"Reference (builtin ops, CPU)"</dt>
                <dd><code data-testid="reference-values">{values_text(&completed.reference.values, completed.reference.elements())}</code></dd>
                <dt>"Max |difference|"</dt>
                <dd data-testid="output-difference">{difference.map(|d| d.to_string()).unwrap_or_default()}</dd>
                {gradient_rows}
                <dt>"Backend"</dt>
                <dd data-testid="device">{format!("{backend} · {}", completed.device)}</dd>
                <dt>"Time"</dt>
                <dd data-testid="timing" data-engine-ms=format!("{:.2}", completed.elapsed_ms)>
                    {format!("{:.1} ms in the engine, {:.1} ms round trip", completed.elapsed_ms, round_trip_ms)}
                </dd>
            </dl>
            {no_gradient.map(|reason| view! { <p class="note" data-testid="no-gradient">{reason}</p> })}
            <h3>"Implementations that ran"</h3>
            <p class="note">"Each implementation records itself when it runs; this list is what executed."</p>
            {impls}
        </article>
    }
}

#[component]
fn PanicCard(
    report: PanicReport,
    scenario: Scenario,
    param_text: String,
    on_fix: Callback<FixAction>,
) -> impl IntoView {
    let location = report.location.as_ref().map(|location| {
        format!(
            "{}:{}:{}",
            short_path(&location.file),
            location.line,
            location.column
        )
    });
    let kind = PanicKind::of(&report.message, &scenario);
    let offers = fixes(kind, &scenario, &param_text);
    let fix_list = (!offers.is_empty()).then(|| {
        view! {
            <h3>"Fixes"</h3>
            <div class="fixes">
                {offers
                    .into_iter()
                    .map(|offer| {
                        let action = offer.action;
                        view! {
                            <div class="fix" data-fix=offer.label>
                                <button type="button" class="fix-button" on:click=move |_| on_fix.run(action)>
                                    {offer.label}
                                </button>
                                <p class="note">{offer.description}</p>
                                <div class="before-after">
                                    <div>
                                        <span class="before-after-label">"Before"</span>
                                        <pre class="snippet"><code>{offer.before}</code></pre>
                                    </div>
                                    <div>
                                        <span class="before-after-label">"After"</span>
                                        <pre class="snippet"><code>{offer.after}</code></pre>
                                    </div>
                                </div>
                            </div>
                        }
                    })
                    .collect_view()}
            </div>
        }
    });
    view! {
        <article class="card card-panic" data-outcome="panicked" role="alert">
            <h2>"burn panicked"</h2>
            <pre class="panic-message" data-testid="panic-message">{report.message.clone()}</pre>
            {location.map(|location| view! {
                <p>"at " <code data-testid="panic-location">{location}</code></p>
            })}
            <p class="note">"The engine worker that panicked was replaced; your inputs and toggles are unchanged."</p>
            <h3>"What it means"</h3>
            <p data-testid="panic-meaning">{kind.meaning()}</p>
            {kind.surprise().map(|surprise| view! { <p class="surprise" data-testid="panic-surprise">{surprise}</p> })}
            {fix_list}
        </article>
    }
}
