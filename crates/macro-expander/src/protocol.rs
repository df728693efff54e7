//! What the expander answers, as plain data: shared by the expander (which fills it) and the
//! page (which shows it), and postcard-encoded between them as the engine's messages are.

use std::ops::Range;

use serde::{Deserialize, Serialize};

/// The most text the expander reads (the page's editor keeps no more): a declaration is a few
/// hundred bytes; this leaves room for many methods and types while keeping a pasted file from
/// stalling the page.
pub const MAX_TEXT_BYTES: usize = 64 * 1024;

/// A version of burn's macro code the expander holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum MacroVersion {
    /// burn-backend-extension 0.22.1: the release whose routing the engine runs.
    #[default]
    V0_22,
    /// burn-backend-extension 0.23.0-pre.1: expansion only.
    V0_23,
}

impl MacroVersion {
    /// Every version held, in the order the worker answers with them.
    pub const ALL: [MacroVersion; 2] = [MacroVersion::V0_22, MacroVersion::V0_23];
}

/// Where in the typed text something is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Place {
    /// Byte offsets in the text.
    pub bytes: Range<usize>,
    /// 1-based line of the first byte.
    pub line: usize,
    /// 0-based column (in characters) of the first byte.
    pub column: usize,
    /// 1-based line of the end.
    pub end_line: usize,
    /// 0-based column (in characters) of the end.
    pub end_column: usize,
}

/// Which step said no.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Origin {
    /// The text could not be cut into Rust tokens (proc-macro2's lexer).
    Tokens,
    /// The tokens are not Rust items, or the attribute is not written as an attribute (syn).
    Syntax,
    /// burn's macro rejected the declaration: its `syn::Error`, or a `compile_error!` it emitted.
    Macro,
    /// The expander did not run the macro: the text is empty, too long, too deeply nested, or
    /// has nothing for the macro to expand.
    Limit,
}

/// One error, with its place in the text when it has one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MacroError {
    /// The message, as the step that raised it wrote it.
    pub message: String,
    /// Where it points.
    pub place: Option<Place>,
    /// Which step raised it.
    pub origin: Origin,
}

/// What burn's macro made of the text.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Expansion {
    /// The items the macro emitted (and the items it was not asked to expand), formatted by
    /// prettyplease; `None` when it emitted nothing.
    pub code: Option<String>,
    /// The emitted tokens as one line (proc-macro2's spacing): two declarations expand the same
    /// when these are equal.
    pub tokens: Option<String>,
    /// Every error, in the order they were raised; a `compile_error!` in the emitted code is one.
    pub errors: Vec<MacroError>,
    /// The version of burn-backend-extension whose code answered.
    pub macro_version: String,
    /// The concrete backends that version's catalog lists (the selectors it knows besides
    /// `Autodiff` and `Fusion`), in its order.
    pub catalog: Vec<String>,
    /// What a project implementing the declaration needs to know of it: present when the macro
    /// accepted every item without an error.
    pub outline: Option<Outline>,
    /// For each line of `code`, the bytes of the typed text carried by the tokens printed on
    /// it (from the spans the macro gave them), merged and in order; empty for a line the macro
    /// wrote alone.
    pub line_sources: Vec<Vec<Range<usize>>>,
    /// The bytes of each `#[backend_extension(...)]` attribute the macro read, in the text's
    /// order.
    pub attributes: Vec<Range<usize>>,
    /// The selectors those attributes list, each with the bytes of its name, in the text's order.
    pub selectors: Vec<SelectorPlace>,
    /// The generated impls and match arms that serve one selector: those whose lines carry the
    /// bytes of exactly one selector's name (an arm inside one that serves the same selector is
    /// not listed again).
    pub served: Vec<Served>,
}

/// A selector's name where the attribute writes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SelectorPlace {
    /// The name, as written (`Cube`, `Flex`, `Autodiff`, …).
    pub name: String,
    /// Its bytes in the text.
    pub bytes: Range<usize>,
}

/// Which generated item a [`Served`] region is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Region {
    /// An `impl` block.
    Impl,
    /// A match arm.
    Arm,
}

/// A generated impl or match arm, and the one selector whose name its lines carry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Served {
    /// An impl or an arm.
    pub region: Region,
    /// Its lines in `code`, counted from 0, the last excluded.
    pub lines: Range<usize>,
    /// The selector, as written.
    pub selector: String,
}

/// A declaration the macro accepted, as read from the text (not from the expansion): what an
/// exported project implements, and the names it must not import over.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outline {
    /// The `#[backend_extension(...)]` traits, in the text's order.
    pub traits: Vec<TraitOutline>,
    /// The names the text's own items define at its top level (traits, types, functions, …).
    pub defined: Vec<String>,
    /// The names the text's own `use` items bring in.
    pub imported: Vec<String>,
}

/// One `#[backend_extension(...)]` trait.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TraitOutline {
    /// The trait's name.
    pub name: String,
    /// The attribute's selectors, in the order written.
    pub selectors: Vec<Selector>,
    /// The trait's methods, in the order written.
    pub methods: Vec<Method>,
}

/// One selector of the attribute: `Cube`, `Flex: cfg(feature = "flex")`, `Autodiff`, …
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Selector {
    /// The selector's name.
    pub name: String,
    /// The meta after its colon, as tokens print (`cfg(feature = "flex")`), when it has one.
    pub cfg: Option<String>,
    /// Every `feature = "…"` that meta tests, in the order written.
    pub features: Vec<String>,
    /// For a concrete backend, the cfg the macro's own backend catalog gates it behind inside
    /// burn (`feature = "ndarray"`, `cube_backend`); `None` for `Autodiff` and `Fusion`.
    pub catalog_cfg: Option<String>,
}

/// One method of the trait.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Method {
    /// The method's name.
    pub name: String,
    /// Its signature's tokens as one line: two methods are the same method when these are equal.
    pub signature: String,
    /// The method as an impl writes it when it has nothing to run yet: its signature (without
    /// the attributes only the macro reads, such as `#[extension_type]`) and a `todo!()` body,
    /// formatted by prettyplease.
    pub stub: String,
    /// Whether the trait gives it a default body.
    pub has_default: bool,
}

/// A text's expansions, one per version in [`MacroVersion::ALL`]'s order, as the worker sends
/// them.
pub fn encode(expansions: &[Expansion]) -> Vec<u8> {
    // Plain owned data: encoding into a Vec cannot fail.
    postcard::to_allocvec(expansions).unwrap_or_default()
}

/// A text's expansions as the page reads them; `None` for bytes that are not them.
pub fn decode(bytes: &[u8]) -> Option<Vec<Expansion>> {
    postcard::from_bytes(bytes).ok()
}
