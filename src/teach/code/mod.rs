//! The Rust the page writes: the op's declaration and implementations, cut from the sources the
//! engine compiles ([`op_sources`]), and the statements around its call ([`snippets`]). The fixes'
//! before/after code, the training model's call and the exported project all come from here.

pub mod op_sources;
pub mod snippets;
