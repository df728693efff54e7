//! The routing view: the code burn's macro generated, and what a run did in it.
//!
//! - [`expanded`]: the routing rustc expanded for every op and declaration, shipped with the page.
//! - [`route_view`]: the arm of that code a run went through, from what the run observed.
//! - [`highlight`]: Rust syntax colouring for the code views.
//! - [`diff`]: what one declaration's routing adds to another's, line by line and in words.
//! - [`diagnostics`]: what rustc says about a declaration that does not build in an engine.

pub mod diagnostics;
pub mod diff;
pub mod expanded;
pub mod highlight;
pub mod route_view;
