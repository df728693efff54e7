//! What the user types, parsed: every mistake is a message shown next to its field, and nothing
//! here panics, whatever the text (property tests check this).
//!
//! - [`args`]: the op's tensor and scalar fields → typed op arguments.
//! - [`settings`]: the training fields → training settings.

pub mod args;
pub mod settings;
