//! The banners above the controls: the engine's state (loading with its download progress,
//! ready, restarting, failed with a retry) and what a link had that could not be used.

use leptos::prelude::*;

use super::engine_loader::LoadProgress;
use super::state::use_playground;
use crate::client::machine::Status;

fn megabytes(bytes: f64) -> String {
    format!("{:.1} MB", bytes / 1_000_000.0)
}

/// The engine download: a bar (a fraction when the size is known) and the bytes received.
#[component]
fn Progress(progress: LoadProgress) -> impl IntoView {
    let text = match progress.total {
        Some(total) => format!("{} of {}", megabytes(progress.received), megabytes(total)),
        None => format!("{} received", megabytes(progress.received)),
    };
    view! {
        <span class="load-progress">
            <progress
                max=progress.total.map(|total| total.to_string())
                value=progress.total.map(|_| progress.received.to_string())
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
        Status::Ready { gpu: Ok(adapter), note } => view! {
            <p
                class="banner banner-ok"
                data-testid="engine-status"
                role="status"
                data-spare=move || format!("{:?}", playground.spare.get()).to_lowercase()
                data-adapter=adapter.clone()
            >
                "Engine ready on WebGPU: " <strong>{adapter}</strong> "."
                {note.map(|note| view! { " " <span class="banner-note">{note}</span> })}
            </p>
        }
        .into_any(),
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
