//! Training with the op: a small model with the custom op in its forward pass, trained by
//! burn's optimiser beside its builtin twin, the two loss curves drawn live as the worker streams
//! them. A model whose op cannot run in an autodiff context panics at step 1: the same card as a
//! single run, with fixes that train again.

use leptos::prelude::*;

use super::outcome_view::PanicCard;
use super::state::{Change, use_playground};
use crate::client::machine::{Reply, RequestId};
use crate::model::training::{
    LossPoint, MAX_STEPS, OptimizerChoice, TrainOutcome, TrainReport, TrainRequest,
};
use crate::teach::chart::{CHART_HEIGHT, CHART_WIDTH, PLOT_LEFT, chart};
use crate::teach::code::snippets::training_call_site;
use crate::teach::input::settings::TrainField;
use crate::teach::link::words::LinkWord;
use crate::teach::numbers::group_thousands;
use crate::teach::numbers::significant;
use crate::teach::words::explain::FixContext;
use crate::teach::words::present::{backend_text, impl_text};
use crate::teach::words::training::{
    end_text, largest_gap, loss_text, model_text, params_text, request_text,
};

/// The training panel's state.
#[derive(Clone, Debug, PartialEq)]
enum Training {
    /// Nothing trained yet.
    Idle,
    /// Training run `id` is going; `points` arrived so far.
    Running {
        id: RequestId,
        request: TrainRequest,
        points: Vec<LossPoint>,
    },
    /// A run ended.
    Done {
        request: TrainRequest,
        points: Vec<LossPoint>,
        reply: Reply,
    },
}

/// Starts training the form's op as the form declares and calls it.
fn start(training: RwSignal<Training>) {
    let playground = use_playground();
    let form = playground.form.get_untracked();
    let Ok(settings) = form.train_settings() else {
        return;
    };
    let request = TrainRequest {
        op: form.op,
        declaration: form.declaration,
        fix: form.fix,
        backend: form.backend,
        settings,
    };
    let client = playground.client.get_value();
    let (id, answer) = client.train(
        request.clone(),
        Box::new(move |new: &[LossPoint]| {
            training.update(|training| {
                if let Training::Running { points, .. } = training {
                    points.extend_from_slice(new);
                }
            })
        }),
    );
    training.set(Training::Running {
        id,
        request,
        points: Vec::new(),
    });
    leptos::task::spawn_local(async move {
        let reply = answer.await;
        training.update(|training| {
            // Only the run on screen may end it (a newer one replaced an older one).
            if let Training::Running {
                id: running,
                request,
                points,
            } = training
                && *running == id
            {
                *training = Training::Done {
                    request: request.clone(),
                    points: std::mem::take(points),
                    reply,
                };
            }
        });
    });
}

/// The training panel.
#[component]
pub fn TrainingPanel() -> impl IntoView {
    let playground = use_playground();
    let form = playground.form;
    let training = RwSignal::new(Training::Idle);
    let errors =
        Memo::new(move |_| form.with(|form| form.train_settings().err().unwrap_or_default()));
    let error = move |field: TrainField| {
        errors.with(|errors| {
            errors
                .iter()
                .find(|error| error.field() == field)
                .map(ToString::to_string)
        })
    };
    let running = move || matches!(training.get(), Training::Running { .. });
    let edit_text = move |apply: Box<dyn FnOnce(&mut crate::teach::form::Form)>| {
        form.update(apply);
        playground
            .form
            .with_untracked(|form| super::url::write(form, super::url::HistoryMode::Replace));
    };
    let stop = move |_| {
        if let Training::Running { id, .. } = training.get_untracked() {
            playground.client.get_value().stop_training(id);
        }
    };
    let optimizer_options = OptimizerChoice::ALL
        .into_iter()
        .map(|optimizer| {
            view! {
                <option value=optimizer.word() selected=move || form.with(|form| form.optimizer == optimizer)>
                    {match optimizer {
                        OptimizerChoice::Adam => "Adam",
                        OptimizerChoice::Sgd => "SGD",
                    }}
                </option>
            }
        })
        .collect_view();

    view! {
        <section class="panel training" aria-labelledby="training-heading">
            <h2 id="training-heading">"Train with it"</h2>
            <p class="note">
                "A training loop is where this op meets autodiff. This trains a small model that calls the op in its forward pass — with burn's own optimiser, on the autodiff device — beside the same model built with burn's builtin ops. The op, its declaration and the fix are the scenario's; the heading of each run names the backend it ran on."
            </p>
            <p class="note" data-testid="train-model">{move || model_text(form.with(|form| form.op))}</p>
            <div class="train-settings">
                <div class="train-field">
                    <label for="train-steps">"Steps"</label>
                    <input
                        id="train-steps"
                        type="text"
                        inputmode="numeric"
                        aria-describedby="train-steps-error"
                        aria-invalid=move || error(TrainField::Steps).is_some().to_string()
                        prop:value=move || {
                            playground.text_revision.track();
                            form.with_untracked(|form| form.train.steps.clone())
                        }
                        on:input=move |event| {
                            let text = event_target_value(&event);
                            edit_text(Box::new(move |form| form.train.steps = text));
                        }
                    />
                    <p class="field-error" id="train-steps-error" role="alert">{move || error(TrainField::Steps)}</p>
                </div>
                <div class="train-field">
                    <label for="train-lr">"Learning rate"</label>
                    <input
                        id="train-lr"
                        type="text"
                        inputmode="decimal"
                        aria-describedby="train-lr-error"
                        aria-invalid=move || error(TrainField::LearningRate).is_some().to_string()
                        prop:value=move || {
                            playground.text_revision.track();
                            form.with_untracked(|form| form.train.learning_rate.clone())
                        }
                        on:input=move |event| {
                            let text = event_target_value(&event);
                            edit_text(Box::new(move |form| form.train.learning_rate = text));
                        }
                    />
                    <p class="field-error" id="train-lr-error" role="alert">{move || error(TrainField::LearningRate)}</p>
                </div>
                <div class="train-field">
                    <label for="train-optimizer">"Optimiser"</label>
                    <select
                        id="train-optimizer"
                        on:change=move |event| {
                            let value = event_target_value(&event);
                            if let Some(optimizer) = OptimizerChoice::from_word(&value) {
                                playground.edit(Change::Typing, move |form| form.optimizer = optimizer);
                            }
                        }
                    >
                        {optimizer_options}
                    </select>
                </div>
            </div>
            <div class="run-row">
                <button
                    type="button"
                    class="run-button"
                    data-testid="train-button"
                    prop:disabled=move || running() || !errors.with(Vec::is_empty)
                    on:click=move |_| start(training)
                >
                    {move || match training.get() {
                        Training::Idle => "Train",
                        Training::Running { .. } => "Training…",
                        Training::Done { .. } => "Train again",
                    }}
                </button>
                <button
                    type="button"
                    class="share-button"
                    data-testid="stop-button"
                    prop:disabled=move || !running()
                    on:click=stop
                >"Stop"</button>
                <span class="note">{format!("1 to {} steps; the losses stream in as it trains.", group_thousands(MAX_STEPS))}</span>
            </div>
            <div aria-live="polite" aria-busy=move || running().to_string() data-testid="training">
                {move || training_view(training.get(), training)}
            </div>
        </section>
    }
}

fn training_view(state: Training, training: RwSignal<Training>) -> AnyView {
    match state {
        Training::Idle => view! {
            <p class="note">"Press Train to watch both loss curves grow, step by step."</p>
        }
        .into_any(),
        Training::Running {
            request, points, ..
        } => {
            let step = points.last().map_or(0, |point| point.step);
            view! {
                <p class="run-status" data-testid="train-status" data-state="running">
                    <span class="spinner" aria-hidden="true"></span>
                    {format!("Training: step {step} of {}…", request.settings.steps)}
                </p>
                <LossChart points steps=request.settings.steps/>
            }
            .into_any()
        }
        Training::Done {
            request,
            points,
            reply,
        } => {
            let backend = match &reply {
                Reply::Trained(TrainOutcome::Trained(report)) => Some(report.backend),
                Reply::Trained(TrainOutcome::Panicked { report, .. })
                | Reply::WorkerPanicked(report) => report.backend,
                _ => None,
            };
            let heading = view! {
                <p class="note" data-testid="train-request">{request_text(&request, backend)}</p>
            };
            match reply {
                Reply::Trained(TrainOutcome::Trained(report)) => view! {
                    {heading}
                    <TrainedView report steps=request.settings.steps points/>
                }
                .into_any(),
                Reply::Trained(TrainOutcome::Panicked { step, report }) => {
                    panicked(heading.into_any(), request, step, report, true, training)
                }
                // In the browser a panic traps the worker: its hook said which step raised it.
                Reply::WorkerPanicked(report) => {
                    let step = report.training_step.unwrap_or(0);
                    panicked(heading.into_any(), request, step, report, false, training)
                }
                Reply::Trained(TrainOutcome::NotBuilt { fusion }) => view! {
                    {heading}
                    <p class="run-status" data-testid="train-status" data-state="not-built">"Nothing trained: the op's declaration does not build in this engine."</p>
                    <super::outcome_view::NotBuiltCard op=request.op declaration=request.declaration fusion/>
                }
                .into_any(),
                Reply::Trained(TrainOutcome::Failed(reason)) | Reply::Failed(reason) => view! {
                    {heading}
                    <p class="failure-message" data-testid="train-status" data-state="failed">{reason}</p>
                }
                .into_any(),
                Reply::Outcome(_) | Reply::Case(_) | Reply::Superseded => ().into_any(),
            }
        }
    }
}

/// A training run that panicked at `step`: the same card as a single run, whose fixes train
/// again.
fn panicked(
    heading: AnyView,
    request: TrainRequest,
    step: u32,
    report: crate::model::outcome::PanicReport,
    worker_survived: bool,
    training: RwSignal<Training>,
) -> AnyView {
    let retrain = Callback::new(move |()| start(training));
    let context = FixContext {
        op: request.op,
        declaration: request.declaration,
        site: training_call_site(request.op),
        fix: request.fix,
        input: String::new(),
        // The model's layers call the op on [examples, features] batches.
        input_dims: 2,
        grad_context: true,
        backend: report.backend.unwrap_or(request.backend),
        // Set by the card from what the engine says now.
        gpu_available: false,
    };
    view! {
        {heading}
        <p class="run-status" data-testid="train-status" data-state="panicked">
            {format!("burn panicked at step {step}: a training loop stops here.")}
        </p>
        <PanicCard report context worker_survived then=retrain/>
    }
    .into_any()
}

/// A finished (or stopped, or diverged) run: its end, the chart, what the curves did and what
/// happened to the parameters — each read from the report.
#[component]
fn TrainedView(report: TrainReport, steps: u32, points: Vec<LossPoint>) -> impl IntoView {
    let last = report.curve.last().copied();
    let gap = largest_gap(&report.curve);
    let impls = if report.impls.is_empty() {
        view! { <p class="note" data-testid="train-no-impls">"No custom op implementation ran in step 1."</p> }.into_any()
    } else {
        let calls = report
            .impls
            .iter()
            .map(|call| view! { <li><code>{impl_text(call)}</code></li> })
            .collect_view();
        view! { <ol class="impls" data-testid="train-impls">{calls}</ol> }.into_any()
    };
    let state = match report.end {
        crate::model::training::TrainEnd::Completed => "completed",
        crate::model::training::TrainEnd::Stopped { .. } => "stopped",
        crate::model::training::TrainEnd::Diverged { .. } => "diverged",
    };
    // The streamed points and the report's curve are the same losses; the report is complete.
    let _ = points;
    view! {
        <p class="run-status" data-testid="train-status" data-state=state>{end_text(report.end, steps)}</p>
        <LossChart points=report.curve.clone() steps/>
        <p data-testid="train-verdict">{loss_text(&report)}</p>
        <dl class="facts">
            <dt>"Final loss"</dt>
            <dd
                data-testid="train-final"
                data-custom=last.map(|point| point.custom.to_string())
                data-builtin=last.map(|point| point.builtin.to_string())
            >{last.map(|point| format!(
                "custom {} · builtin {} (step {})",
                significant(point.custom),
                significant(point.builtin),
                point.step
            ))}</dd>
            <dt>"Largest |custom − builtin|"</dt>
            <dd data-testid="train-gap" data-gap=gap.map(|gap| gap.to_string())>{gap.map(significant)}</dd>
            <dt>"Parameters"</dt>
            <dd data-testid="train-gradients">{params_text(&report.params)}</dd>
            <dt>"Backend"</dt>
            <dd data-testid="train-backend">{format!("{} · {}", backend_text(report.backend), report.device)}</dd>
            <dt>"Time"</dt>
            <dd>{format!("{:.0} ms", report.elapsed_ms)}</dd>
        </dl>
        <h3>"Implementations that ran in step 1"</h3>
        {impls}
    }
}

/// The two loss curves on a log scale. Where they are drawn at the same points, the builtin
/// one is dashed and wider under the custom one, and the caption says so.
#[component]
fn LossChart(points: Vec<LossPoint>, steps: u32) -> impl IntoView {
    let drawn = chart(&points, steps);
    let label = match points.last() {
        Some(point) => format!(
            "Loss per step, log scale: at step {} the custom model's loss is {} and the builtin model's {}.",
            point.step,
            significant(point.custom),
            significant(point.builtin)
        ),
        None => "Loss per step: no step read back yet.".to_owned(),
    };
    let coincide = drawn.coincide;
    view! {
        <figure class="loss-chart" class:curves-coincide=coincide data-testid="loss-chart" data-points=points.len()>
            <svg viewBox=format!("0 0 {CHART_WIDTH} {CHART_HEIGHT}") role="img" aria-label=label>
                {drawn.y_ticks.into_iter().map(|(y, text)| view! {
                    <line class="grid" x1=PLOT_LEFT x2=CHART_WIDTH - 12.0 y1=y y2=y/>
                    <text class="tick" x=PLOT_LEFT - 6.0 y=y + 4.0 text-anchor="end">{text}</text>
                }).collect_view()}
                // The first step's label starts at its tick, the last one's ends at it: neither
                // leaves the chart.
                {drawn.x_ticks.into_iter().enumerate().map(|(index, (x, text))| view! {
                    <text class="tick" x=x y=CHART_HEIGHT - 6.0 text-anchor=if index == 0 { "start" } else { "end" }>{text}</text>
                }).collect_view()}
                <polyline class="curve-builtin" points=drawn.builtin/>
                <polyline class="curve-custom" points=drawn.custom/>
            </svg>
            <figcaption>
                <span class="legend legend-custom">"custom op"</span>
                <span class="legend legend-builtin">"builtin ops"</span>
                {coincide.then(|| view! {
                    <span class="note" data-testid="curves-coincide">
                        " The two curves coincide on this chart: the builtin one is the dashed line under the custom one."
                    </span>
                })}
            </figcaption>
        </figure>
    }
}
