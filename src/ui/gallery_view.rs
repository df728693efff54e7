//! The related-errors gallery: one card per routing or dispatch error, each running the real
//! scenario that raises it.

use leptos::prelude::*;

use super::engine_client::{EngineClient, RunReply};
use crate::form::Form;
use crate::gallery::{CARDS, Card, CardScenario};
use crate::outcome::CaseOutcome;
use crate::present::short_path;

/// All cards. `on_load` receives the form of a scenario card (the app runs it);
/// snippet cards run in the engine and show their result in place.
#[component]
pub fn GalleryView(
    form: RwSignal<Form>,
    client: StoredValue<EngineClient, LocalStorage>,
    on_load: Callback<Form>,
) -> impl IntoView {
    view! {
        <section class="panel gallery" aria-labelledby="gallery-heading">
            <h2 id="gallery-heading">"Related errors"</h2>
            <p class="note">
                "The messages users meet next to this one, each raised by a real scenario. "
                "Scenario cards load into the controls above; snippet cards run their code in the engine as shown."
            </p>
            <div class="gallery-grid">
                {CARDS.iter().map(|card| view! { <GalleryCard card form client on_load/> }).collect_view()}
            </div>
        </section>
    }
}

#[component]
fn GalleryCard(
    card: &'static Card,
    form: RwSignal<Form>,
    client: StoredValue<EngineClient, LocalStorage>,
    on_load: Callback<Form>,
) -> impl IntoView {
    let result = RwSignal::new(None::<CaseOutcome>);
    let running = RwSignal::new(false);
    let action = match &card.scenario {
        CardScenario::Form { .. } => {
            let scenario = card.scenario.clone();
            view! {
                <button type="button" class="card-button" on:click=move |_| {
                    if let Some(loaded) = scenario.apply_to(&form.get_untracked()) {
                        on_load.run(loaded);
                    }
                }>"Load and run"</button>
            }
            .into_any()
        }
        CardScenario::Case(case) => {
            let case = *case;
            view! {
                <pre class="snippet"><code>{case.code()}</code></pre>
                <button type="button" class="card-button" prop:disabled=move || running.get() on:click=move |_| {
                    running.set(true);
                    leptos::task::spawn_local(async move {
                        let reply = client.get_value().run_case(case).await;
                        running.set(false);
                        result.set(Some(match reply {
                            RunReply::Case(outcome) => outcome,
                            RunReply::Panicked(report) => CaseOutcome::Panicked(report),
                            RunReply::Crashed(reason) => CaseOutcome::Unavailable(reason),
                            _ => CaseOutcome::Unavailable("The run was replaced by another.".to_owned()),
                        }));
                    });
                }>{move || if running.get() { "Running…" } else { "Run" }}</button>
            }
            .into_any()
        }
        CardScenario::Unreachable(reason) => {
            view! { <p class="note unreachable">{*reason}</p> }.into_any()
        }
    };
    let shown = move || {
        result.get().map(|outcome| match outcome {
            CaseOutcome::Panicked(report) => view! {
                <pre class="panic-message" data-testid="card-message">{report.message.clone()}</pre>
                {report.location.map(|location| view! {
                    <p class="note">"at " <code>{format!("{}:{}", short_path(&location.file), location.line)}</code></p>
                })}
            }
            .into_any(),
            CaseOutcome::Completed(text) | CaseOutcome::Unavailable(text) => {
                view! { <p class="note" data-testid="card-message">{text}</p> }.into_any()
            }
        })
    };
    view! {
        <article class="gallery-card" data-card=card.id>
            <h3>{card.title}</h3>
            <p>{card.explanation}</p>
            {action}
            {shown}
        </article>
    }
}
