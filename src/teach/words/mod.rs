//! The words the page says about a run, each read from what the run recorded:
//!
//! - [`present`]: numbers, shapes, paths, routes and implementations, as the page words them.
//! - [`explain`]: what a panic means, and the fixes for it.
//! - [`training`]: the model a run trains, how it ended, its losses and parameters.
//! - [`gallery`]: the related-errors cards.
//! - [`tour`]: the guided first visit's steps.

pub mod explain;
pub mod gallery;
pub mod present;
pub mod tour;
pub mod training;
