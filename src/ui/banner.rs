//! The banners above the controls: the engine's state (loading with its download progress,
//! ready, restarting, failed with a retry) and what a link had that could not be used.

use leptos::prelude::*;

use super::engine_loader::LoadProgress;
use super::state::use_playground;
use crate::client::machine::Status;

fn megabytes(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1_000_000.0)
}

/// The engine download: a bar and how many of its bytes arrived, of the total that crosses the
/// network; or that it comes from this browser's cache.
#[component]
fn Progress(progress: LoadProgress) -> impl IntoView {
    let text = match (progress.cached, progress.sent, progress.total) {
        (true, ..) => "from this browser's cache".to_owned(),
        (false, Some(sent), Some(total)) => {
            format!("{} of {}", megabytes(sent), megabytes(total))
        }
        _ => format!("{} received", megabytes(progress.received)),
    };
    view! {
        <span class="load-progress">
            <progress
                max="1"
                value=progress.fraction.map(|fraction| fraction.to_string())
                aria-label="Engine download"
            ></progress>
            " " <span data-testid="load-bytes">{text}</span>
        </span>
    }
}

/// The engine's state.
#[component]
pub fn EngineBanner() -> impl IntoView {
    let playground = use_playground();
    move || {
        match playground.status.get() {
        Status::Loading => view! {
            <p class="banner banner-info" data-testid="engine-status" role="status">
                <span class="spinner" aria-hidden="true"></span>
                "Loading the engine: downloading and compiling burn's WebAssembly, then starting WebGPU… "
                {move || playground.load_progress.get().map(|progress| view! { <Progress progress/> })}
            </p>
        }
        .into_any(),
        Status::Ready { gpu: Ok(adapter), note } => {
            let name = adapter.clone();
            view! {
            <p
                class="banner banner-ok"
                data-testid="engine-status"
                role="status"
                data-spare=move || format!("{:?}", playground.spare.get()).to_lowercase()
                data-adapter=name
            >
                // Which engine the loader fetched: the one built with burn's fusion, or not.
                {if super::engine_shell::fusion_engine() {
                    "Engine (burn built with fusion) ready on WebGPU: "
                } else {
                    "Engine ready on WebGPU: "
                }}
                <strong>{adapter}</strong> "."
                {note.map(|note| view! { " " <span class="banner-note">{note}</span> })}
            </p>
            }
            .into_any()
        }
        Status::Ready { gpu: Err(reason), note } => view! {
            <p class="banner banner-warn" data-testid="engine-status" role="status">
                "WebGPU is not available here (" {reason} "). Every run uses the CPU backend (burn-flex) instead. Its selector is Flex: an op declared without Flex meets the routing's fallback arm there."
                {note.map(|note| view! { " " <span class="banner-note">{note}</span> })}
            </p>
        }
        .into_any(),
        Status::Restarting(why) => view! {
            <p class="banner banner-info" data-testid="engine-status" role="status">
                <span class="spinner" aria-hidden="true"></span>
                {why}
            </p>
        }
        .into_any(),
        Status::Failed(reason) => view! {
            <div class="banner banner-error" data-testid="engine-status" role="alert">
                <p>{reason}</p>
                <button
                    type="button"
                    class="retry-button"
                    on:click=move |_| {
                        playground.client.get_value().retry();
                        playground.schedule_run(0);
                    }
                >"Try again"</button>
            </div>
        }
        .into_any(),
    }
    }
}

/// What was ignored in the link the page was opened with.
#[component]
pub fn UrlNotices() -> impl IntoView {
    let notices = use_playground().url_notices;
    move || {
        let notices = notices.get();
        (!notices.is_empty()).then(|| {
            view! {
                <div class="banner banner-warn" data-testid="url-notices" role="status">
                    <ul>{notices.into_iter().map(|notice| view! { <li>{notice.to_string()}</li> }).collect_view()}</ul>
                </div>
            }
        })
    }
}

/// Whether the browser says it is online.
fn online() -> bool {
    web_sys::window().is_none_or(|window| window.navigator().on_line())
}

/// Whether a service worker serves this page (the build kept in this browser's cache).
fn cached_build() -> bool {
    web_sys::window()
        .map(|window| window.navigator().service_worker())
        .is_some_and(|workers| workers.controller().is_some())
}

/// Says so when the browser is offline, and whether the playground runs from its cache.
#[component]
pub fn OfflineNotice() -> impl IntoView {
    let offline = RwSignal::new(!online());
    let on = window_event_listener(leptos::ev::online, move |_| offline.set(false));
    let off = window_event_listener(leptos::ev::offline, move |_| offline.set(true));
    on_cleanup(move || {
        on.remove();
        off.remove();
    });
    move || {
        offline.get().then(|| {
            let text = if cached_build() {
                "You are offline. The playground runs from this browser's cache: the page and its engine were kept from your last visit."
            } else {
                "You are offline. What is already loaded keeps working; anything else this page needs cannot be fetched."
            };
            view! { <p class="banner banner-info" data-testid="offline-notice" role="status">{text}</p> }
        })
    }
}
