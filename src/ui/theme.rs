//! Light/dark theme: follows the system until the user picks one; the pick is remembered.

use leptos::prelude::*;

const STORAGE_KEY: &str = "theme";

/// The user's choice.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Theme {
    System,
    Light,
    Dark,
}

impl Theme {
    fn next(self) -> Theme {
        match self {
            Theme::System => Theme::Light,
            Theme::Light => Theme::Dark,
            Theme::Dark => Theme::System,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Theme::System => "Theme: system",
            Theme::Light => "Theme: light",
            Theme::Dark => "Theme: dark",
        }
    }

    fn stored() -> Theme {
        match storage()
            .and_then(|storage| storage.get_item(STORAGE_KEY).ok().flatten())
            .as_deref()
        {
            Some("light") => Theme::Light,
            Some("dark") => Theme::Dark,
            _ => Theme::System,
        }
    }

    /// Sets `data-theme` on `<html>` (the stylesheet keys its colours on it) and remembers it.
    fn apply(self) {
        let root = web_sys::window()
            .and_then(|window| window.document())
            .and_then(|document| document.document_element());
        if let Some(root) = root {
            let _ = match self {
                Theme::System => root.remove_attribute("data-theme"),
                Theme::Light => root.set_attribute("data-theme", "light"),
                Theme::Dark => root.set_attribute("data-theme", "dark"),
            };
        }
        if let Some(storage) = storage() {
            let _ = match self {
                Theme::System => storage.remove_item(STORAGE_KEY),
                Theme::Light => storage.set_item(STORAGE_KEY, "light"),
                Theme::Dark => storage.set_item(STORAGE_KEY, "dark"),
            };
        }
    }
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}

/// A button cycling system → light → dark.
#[component]
pub fn ThemeSwitch() -> impl IntoView {
    let theme = RwSignal::new(Theme::stored());
    Effect::new(move |_| theme.get().apply());
    view! {
        <button
            type="button"
            class="theme-switch"
            title="Switch between the system's theme, light and dark"
            on:click=move |_| theme.update(|theme| *theme = theme.next())
        >
            {move || theme.get().label()}
        </button>
    }
}
