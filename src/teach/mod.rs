//! What the page knows and says: from text typed to the words shown. Page-only, plain Rust,
//! tested natively; the engine never imports it.
//!
//! - [`input`]: the fields' text → typed op arguments, with a message per mistake.
//! - [`form`]: the editable state, and its form in the URL.
//! - [`expanded`]: the routing rustc expanded for every op and declaration, shipped with the
//!   page.
//! - [`route_view`]: the arm of that code a run went through, from what the run observed.
//! - [`diff`]: what one declaration's routing adds to another's, line by line and in words.
//! - [`diagnostics`]: what rustc says about a declaration that does not build in an engine.
//! - [`highlight`]: Rust syntax colouring for the code views.
//! - [`explain`]: what a panic means, and the fixes for it.
//! - [`present`]: numbers, paths and routes as the page words them.
//! - [`gallery`]: the related-errors cards.
//! - [`training`]: the training fields, the loss chart, how a training run ended.
//! - [`export`]: the scenario as a Cargo project that reproduces it natively.
//! - [`tour`]: the guided first visit's steps.

pub mod diagnostics;
pub mod diff;
pub mod expanded;
pub mod explain;
pub mod export;
pub mod form;
pub mod gallery;
pub mod highlight;
pub mod input;
pub mod present;
pub mod route_view;
pub mod tour;
pub mod training;
