//! What the page knows and says: from text typed to the words shown. Page-only, plain Rust,
//! tested natively; the engine never imports it.
//!
//! ```text
//!   link ──▶ form ◀──── words ───▶ routing ──▶ code ◀── export
//!              │          │  └────────────────────▶┘       │
//!              ▼          ▼                                 │
//!            input ──▶ numbers ◀────────────────────────────┘        chart
//! ```
//!
//! Every room also imports `model`; the crate doc's table (checked by `tests/structure.rs`) is the
//! exact list.
//!
//! - [`input`]: the fields' text → typed op arguments and training settings, a message per
//!   mistake.
//! - [`form`]: the editable state, and the scenario it runs.
//! - [`link`]: the form in the URL, and the link's words.
//! - [`words`]: what the page says about a run: values and routes, what a panic means and its
//!   fixes, training, the gallery, the tour.
//! - [`code`]: the Rust the page writes: the op's declaration cut from the engine's own source,
//!   and the statements around its call.
//! - [`editor`]: a declaration the person typed, and what burn's macro answered for it.
//! - [`export`]: the scenario as a Cargo project that reproduces it natively, and its `.zip`.
//! - [`routing`]: the generated routing shipped with the page, the arm a run went through, the
//!   diff between two declarations, rustc's words for what does not build, highlighting.
//! - [`numbers`]: numbers as the page writes them (values, losses, shapes).
//! - [`chart`]: the training loss chart's geometry.

pub mod chart;
pub mod code;
pub mod editor;
pub mod export;
pub mod form;
pub mod input;
pub mod link;
pub mod numbers;
pub mod routing;
pub mod words;
