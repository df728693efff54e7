//! The form in the address bar: read on load and on back/forward, written on every change.
//!
//! Toggles push a history entry (so back/forward step through them); typing replaces the
//! current one (so a sentence is not a hundred entries). A field text too long for a link is
//! left out of it ([`Form::to_query`]); the share button says so.

use wasm_bindgen::JsValue;

use crate::teach::form::Form;
use crate::teach::link::query::UrlNotice;

/// How a change is recorded in the session history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryMode {
    /// A new entry.
    Push,
    /// Rewrite the current entry.
    Replace,
}

/// The form in the current URL, and what in it was ignored.
pub fn read() -> (Form, Vec<UrlNotice>) {
    let query = web_sys::window()
        .and_then(|window| window.location().search().ok())
        .unwrap_or_default();
    Form::from_query(&query)
}

/// Writes `form` to the URL unless it is already there. A history write that the browser
/// refuses (rate limits, quotas) is dropped: the page keeps working with the URL it has.
pub fn write(form: &Form, mode: HistoryMode) {
    let Some(window) = web_sys::window() else {
        return;
    };
    let query = format!("?{}", form.to_query());
    if window.location().search().ok().as_deref() == Some(query.as_str()) {
        return;
    }
    let Ok(history) = window.history() else {
        return;
    };
    let _ = match mode {
        HistoryMode::Push => history.push_state_with_url(&JsValue::NULL, "", Some(&query)),
        HistoryMode::Replace => history.replace_state_with_url(&JsValue::NULL, "", Some(&query)),
    };
}

/// The page's current address, to share.
pub fn current_link() -> Option<String> {
    web_sys::window()?.location().href().ok()
}

/// The page's own address without its query: where links to other scenarios point.
pub fn page_address() -> Option<String> {
    let location = web_sys::window()?.location();
    Some(format!(
        "{}{}",
        location.origin().ok()?,
        location.pathname().ok()?
    ))
}

/// A link to `form` on this page: in the full playground (`embed` off) or as the embed.
pub fn link_to(form: &Form, embed: bool) -> String {
    let mut form = form.clone();
    form.embed = embed;
    format!("{}?{}", page_address().unwrap_or_default(), form.to_query())
}

/// Loads the page again for `form`: another build of burn (fusion on or off) is another engine,
/// which the page picks when it loads.
pub fn reload_with(form: &Form) {
    if let Some(window) = web_sys::window() {
        let _ = window.location().assign(&link_to(form, form.embed));
    }
}
