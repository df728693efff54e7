//! What rustc says about a declaration that does not build in an engine: captured from real
//! rustc runs by `tests/diagnostics.rs` (each declaration of each op, exported as a Cargo project
//! with burn's fusion on, checked with `cargo check`) and shipped with the page, which shows it
//! where a run answers that its declaration was not built.
//!
//! The shipped file holds one section per declaration that fails, `=== {op}__{module}` and
//! rustc's first error below it.

use crate::model::scenario::{Declaration, OpKind};

/// The captured diagnostics, as `tests/diagnostics.rs` writes them.
pub const FUSION_DIAGNOSTICS: &str = include_str!("../../ops/diagnostics/fusion.txt");

/// What rustc says about `op` declared as `declaration` when burn is built with fusion, if that
/// does not compile.
pub fn fusion_diagnostic(op: OpKind, declaration: Declaration) -> Option<&'static str> {
    let header = format!("=== {}__{}\n", op.name(), declaration.module());
    let start = FUSION_DIAGNOSTICS.find(&header)? + header.len();
    let rest = &FUSION_DIAGNOSTICS[start..];
    let end = rest.find("\n=== ").map_or(rest.len(), |end| end + 1);
    Some(rest[..end].trim_end())
}

/// The declaration the not-built card's fix switches to: the nearest catalog line that lists
/// the `Fusion` selector with `#[fusion(dtype = x, shape = x)]` (the op's shape is its input's).
/// It keeps the `Autodiff` arms the build had (listed, or behind a cfg whose feature is on) and
/// lists `Flex`, as every `Fusion` line of the catalog does.
pub fn list_fusion_fix(op: OpKind, declaration: Declaration) -> Option<Declaration> {
    use crate::model::catalog::{AutodiffDeclared, FusionForm};
    crate::teach::code::op_sources::fusion_attribute(op, FusionForm::Shape)?;
    let autodiff = if declaration.autodiff().in_build() {
        AutodiffDeclared::Listed
    } else {
        AutodiffDeclared::Absent
    };
    Declaration::with(autodiff, true, FusionForm::Shape).filter(|fixed| *fixed != declaration)
}

/// What the "List Fusion" fix does, for the line `fixed` it switches to ([`list_fusion_fix`]).
/// `tests/claims/` checks each part against the exported project of the fixed scenario and the
/// fixed line's shipped expansion.
pub fn list_fusion_fix_text(op: OpKind, fixed: Declaration) -> String {
    format!(
        "Declare #[backend_extension({})] with {} on the method, and implement the op for CubeBackend, the backend under fusion: the macro then generates the Fusion<B> impl.",
        fixed.selectors(),
        crate::teach::code::op_sources::fusion_attribute(op, fixed.fusion()).unwrap_or_default()
    )
}
