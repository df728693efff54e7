//! The guided first visit: a small dialog that walks through [`TOUR`], pointing at each step's
//! real control and doing its action with the visitor.
//!
//! The app opens it on a first visit to the plain page (never over a shared link's scenario),
//! is remembered once closed, and reopens from the header's Tour button. Keyboard: its buttons
//! take the focus, Esc closes it; it never traps the focus, so the page stays usable beside it.

use leptos::ev;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::state::{Change, use_playground};
use crate::teach::words::tour::{TOUR, TourAction};

const STORAGE_KEY: &str = "tour";

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// Whether the tour should open by itself: a first visit, to the page without a scenario link.
/// Asked before the page writes its scenario into the address bar.
pub fn first_visit() -> bool {
    let seen = storage()
        .and_then(|storage| storage.get_item(STORAGE_KEY).ok().flatten())
        .is_some();
    let has_link = web_sys::window()
        .and_then(|window| window.location().search().ok())
        .is_some_and(|search| !search.is_empty());
    !seen && !has_link
}

fn remember_closed() {
    if let Some(storage) = storage() {
        let _ = storage.set_item(STORAGE_KEY, "closed");
    }
}

fn element(selector: &str) -> Option<web_sys::Element> {
    web_sys::window()?
        .document()?
        .query_selector(selector)
        .ok()
        .flatten()
}

/// Marks the step's target and brings it into view (the previous mark is removed first).
fn point_at(selector: &str) {
    unmark();
    if let Some(target) = element(selector) {
        mark(&target);
        let options = web_sys::ScrollIntoViewOptions::new();
        options.set_block(web_sys::ScrollLogicalPosition::Center);
        options.set_behavior(web_sys::ScrollBehavior::Smooth);
        target.scroll_into_view_with_scroll_into_view_options(&options);
    }
}

/// Marks `target` as the step's, taking the mark off any other element.
fn mark(target: &web_sys::Element) {
    if let Some(previous) = element(".tour-target") {
        let _ = previous.class_list().remove_1("tour-target");
    }
    let _ = target.class_list().add_1("tour-target");
}

fn unmark() {
    if let Some(previous) = element(".tour-target") {
        let _ = previous.class_list().remove_1("tour-target");
    }
}

/// The header's button that (re)opens the tour.
#[component]
pub fn TourButton(open: RwSignal<Option<usize>>) -> impl IntoView {
    view! {
        <button
            type="button"
            class="theme-switch"
            aria-haspopup="dialog"
            on:click=move |_| open.set(Some(0))
        >"Tour"</button>
    }
}

/// The tour dialog; `open` is the step shown (`None`: closed).
#[component]
pub fn Tour(open: RwSignal<Option<usize>>) -> impl IntoView {
    let playground = use_playground();
    let heading = NodeRef::<leptos::html::H2>::new();
    let close = move || {
        open.set(None);
        unmark();
        remember_closed();
    };
    // Each step: its action, then its target marked and in view, then the focus on the
    // dialog's heading so a screen reader reads the step.
    Effect::new(move |_| {
        let Some(index) = open.get() else {
            return;
        };
        let step = TOUR[index];
        match step.action {
            TourAction::Train => {
                if let Some(button) = element("[data-testid=\"train-button\"]")
                    .and_then(|button| button.dyn_into::<web_sys::HtmlElement>().ok())
                {
                    button.click();
                }
            }
            action => {
                let mut form = playground.form.get_untracked();
                action.apply(&mut form);
                if form != playground.form.get_untracked() {
                    playground.edit(Change::Toggle, move |current| *current = form);
                }
            }
        }
        let target = step.target;
        // After the run's outcome is painted, so the fixes exist to point at.
        leptos::task::spawn_local(async move {
            gloo_timers::future::TimeoutFuture::new(50).await;
            while playground.pending.get_untracked() {
                gloo_timers::future::TimeoutFuture::new(50).await;
            }
            point_at(target);
            // The outcome can be drawn again while the step is shown (the fixes follow what the
            // engine says of its GPU): the mark follows the element that is there now.
            let shown = move || open.try_get_untracked().flatten() == Some(index);
            while shown() {
                gloo_timers::future::TimeoutFuture::new(250).await;
                if shown()
                    && let Some(now) = element(target)
                    && !now.class_list().contains("tour-target")
                {
                    mark(&now);
                }
            }
        });
        if let Some(heading) = heading.get_untracked() {
            let _ = heading.focus();
        }
    });
    let escape = window_event_listener(ev::keydown, move |event| {
        if event.key() == "Escape" && open.get_untracked().is_some() {
            close();
        }
    });
    on_cleanup(move || escape.remove());

    move || {
        open.get().map(|index| {
            let step = TOUR[index];
            let last = index + 1 == TOUR.len();
            view! {
                <div class="tour" role="dialog" aria-modal="false" aria-labelledby="tour-heading" data-testid="tour">
                    <p class="tour-progress">{format!("Step {} of {}", index + 1, TOUR.len())}</p>
                    <h2 id="tour-heading" tabindex="-1" node_ref=heading>{step.title}</h2>
                    <p aria-live="polite">{step.text}</p>
                    <div class="tour-buttons">
                        <button
                            type="button"
                            class="share-button"
                            prop:disabled=index == 0
                            on:click=move |_| open.set(Some(index.saturating_sub(1)))
                        >"Back"</button>
                        {if last {
                            view! { <button type="button" class="run-button" on:click=move |_| close()>"Done"</button> }.into_any()
                        } else {
                            view! { <button type="button" class="run-button" on:click=move |_| open.set(Some(index + 1))>"Next"</button> }.into_any()
                        }}
                        <button type="button" class="share-button" aria-label="Close the tour" on:click=move |_| close()>"Close"</button>
                    </div>
                    <p class="note"><kbd>"Esc"</kbd> " closes the tour; the Tour button above reopens it."</p>
                </div>
            }
        })
    }
}
