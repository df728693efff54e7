//! Plain data both sides share: what to run, how an op is declared, what was observed, and the
//! messages between the page and the engine worker. No burn, no browser: the page's binary
//! builds this without the engine.
//!
//! - [`catalog`]: the declaration catalog, one line per way of declaring an op.
//! - [`scenario`]: what one run runs.
//! - [`outcome`]: what a run observed.
//! - [`gallery_case`]: the gallery's burn snippets.
//! - [`training`]: the op inside training steps: settings, losses, how it ended.
//! - [`protocol`]: the page ⇄ worker messages.
//! - [`bytes`]: number vectors that cross as one byte string.

pub mod bytes;
pub mod catalog;
pub mod gallery_case;
pub mod outcome;
pub mod protocol;
pub mod scenario;
pub mod training;
