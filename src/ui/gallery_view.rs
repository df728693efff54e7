//! The related-errors gallery: one card per routing or dispatch error, each running the real
//! scenario that raises it.

use leptos::prelude::*;

use super::state::use_playground;
use crate::client::machine::Reply;
use crate::model::outcome::CaseOutcome;
use crate::teach::words::gallery::{CARDS, Card, CardScenario};
use crate::teach::words::present::panic_location_text;

/// All cards. A scenario card loads its scenario into the controls, runs it and scrolls to the
/// outcome; a snippet card runs in the engine and shows its result in place.
#[component]
pub fn GalleryView() -> impl IntoView {
    view! {
        <section class="panel gallery" aria-labelledby="gallery-heading">
            <h2 id="gallery-heading">"Related errors"</h2>
            <p class="note">
                "The messages users meet next to this one. "
                "Scenario cards load into the controls above; snippet cards run their code in the engine, as shown (the code is the engine's own source); a card says so when no public API reaches its message."
            </p>
            <div class="gallery-grid">
                {CARDS.iter().map(|card| view! { <GalleryCard card/> }).collect_view()}
            </div>
        </section>
    }
}

#[component]
fn GalleryCard(card: &'static Card) -> impl IntoView {
    let playground = use_playground();
    let result = RwSignal::new(None::<CaseOutcome>);
    let running = RwSignal::new(false);
    let action = match &card.scenario {
        CardScenario::Form { .. } => {
            let scenario = card.scenario.clone();
            view! {
                <button type="button" class="card-button" on:click=move |_| {
                    if let Some(loaded) = scenario.apply_to(&playground.form.get_untracked()) {
                        playground.load_form(loaded);
                        if let Some(outcome) = web_sys::window()
                            .and_then(|window| window.document())
                            .and_then(|document| document.get_element_by_id("outcome-heading"))
                        {
                            outcome.scroll_into_view();
                        }
                    }
                }>"Load and run"</button>
            }
            .into_any()
        }
        CardScenario::Case(case) => {
            let case = *case;
            view! {
                <pre class="snippet" tabindex="0"><code>{crate::teach::words::gallery::snippet(case)}</code></pre>
                <button type="button" class="card-button" prop:disabled=move || running.get() on:click=move |_| {
                    running.set(true);
                    leptos::task::spawn_local(async move {
                        let reply = playground.client.get_value().run_case(case).await;
                        running.set(false);
                        result.set(Some(match reply {
                            Reply::Case(outcome) => outcome,
                            Reply::WorkerPanicked(report) => CaseOutcome::Panicked(report),
                            Reply::Failed(reason) => CaseOutcome::Unavailable(reason),
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
                    <p class="note">"at " <code>{panic_location_text(&location)}</code></p>
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
