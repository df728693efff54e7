//! The op's own source, as text: the trait cut from its `declare_*` macro, its
//! implementations, kernel, backward step and default body, exactly the files the engine compiles
//! (`src/ops/*/`), without the lines that record which implementation ran
//! ([`without_bookkeeping`]). The fix snippets and the exported project both read the op here, so
//! nothing the page writes is a second copy of an op.

use crate::model::catalog::FusionForm;
use crate::model::scenario::{AutodiffDeclared, Declaration, OpKind};

/// The op's own source files, as the engine compiles them.
pub struct OpSources {
    /// `mod.rs`: the trait is cut from its `declare_*` macro.
    pub module: &'static str,
    /// The implementations for the concrete backends.
    pub concrete: &'static str,
    /// The `Autodiff<B, C>` implementation.
    pub autodiff: &'static str,
    /// What only the `Autodiff<B, C>` implementation needs (scale's `Backward` step).
    pub autodiff_support: &'static str,
    /// The kernel and forward passes, or the default body's maths.
    pub support: &'static str,
}

pub fn sources(op: OpKind) -> OpSources {
    match op {
        OpKind::Scale => OpSources {
            module: include_str!("../../ops/scale/mod.rs"),
            concrete: include_str!("../../ops/scale/concrete.rs"),
            autodiff: include_str!("../../ops/scale/autodiff.rs"),
            autodiff_support: include_str!("../../ops/scale/backward.rs"),
            support: include_str!("../../ops/scale/kernel.rs"),
        },
        OpKind::LeakyRelu => OpSources {
            module: include_str!("../../ops/leaky_relu/mod.rs"),
            concrete: include_str!("../../ops/leaky_relu/concrete.rs"),
            autodiff: include_str!("../../ops/leaky_relu/autodiff.rs"),
            autodiff_support: "",
            support: include_str!("../../ops/leaky_relu/body.rs"),
        },
        OpKind::ShiftIds => OpSources {
            module: include_str!("../../ops/shift_ids/mod.rs"),
            concrete: include_str!("../../ops/shift_ids/concrete.rs"),
            autodiff: include_str!("../../ops/shift_ids/autodiff.rs"),
            autodiff_support: "",
            support: include_str!("../../ops/shift_ids/body.rs"),
        },
    }
}

/// The engine's source as a person writes it: without the lines that record which
/// implementation ran (`trace::…`), the playground's only bookkeeping inside its ops.
pub fn without_bookkeeping(text: &str) -> String {
    text.lines()
        .filter(|line| !line.contains("trace::"))
        .map(|line| format!("{line}\n"))
        .collect()
}

/// The name the op's tensor argument has (`x`, `ids`): the declare macro passes it to the trait
/// (`$x`) with its `#[fusion(...)]` attribute, so the two are the same identifier.
pub fn tensor_argument(op: OpKind) -> &'static str {
    if op.takes_int_input() { "ids" } else { "x" }
}

/// The `#[fusion(...)]` attribute `form` puts on the op's method, as the op's declare macro
/// writes it (the arm for the form, in `mod.rs`); `None` without the `Fusion` selector, or when
/// the op has no arm for the form (it does not build).
pub fn fusion_attribute(op: OpKind, form: FusionForm) -> Option<String> {
    let arm = format!("] {form:?}) =>");
    let line = sources(op)
        .module
        .lines()
        .find(|line| line.contains(&arm))?;
    let (_, rest) = line.split_once("[#[fusion(")?;
    let (inside, _) = rest.split_once(")]]")?;
    Some(format!("#[fusion({inside})]"))
}

/// The op's trait as the engine declares it (cut from its `declare_*` macro in `mod.rs`, from the
/// doc comment to the closing brace), under `declaration`'s selectors and `#[fusion]` form.
pub fn trait_declaration(op: OpKind, declaration: Declaration) -> String {
    let lines: Vec<&str> = sources(op).module.lines().collect();
    let attribute = lines
        .iter()
        .position(|line| {
            line.trim_start()
                .starts_with("#[burn::backend::backend_extension(")
        })
        .expect("the op's declare macro has the attribute");
    let indent = lines[attribute].len() - lines[attribute].trim_start().len();
    let first = (0..attribute)
        .rev()
        .take_while(|&index| lines[index].trim_start().starts_with("///"))
        .last()
        .unwrap_or(attribute);
    let closing = format!("{}}}", " ".repeat(indent));
    let last = (attribute..lines.len())
        .find(|&index| lines[index] == closing)
        .expect("the trait's closing brace");
    let argument = format!("${}", tensor_argument(op));
    let fusion = fusion_attribute(op, declaration.fusion());
    let text: String = lines[first..=last]
        .iter()
        .filter_map(|line| {
            let trimmed = line.trim_start();
            if trimmed.starts_with("#[burn::backend::backend_extension(") {
                Some(format!(
                    "#[backend_extension({})]\n",
                    declaration.selectors()
                ))
            } else if trimmed == "$($fusion)*" {
                // The method's `#[fusion(...)]`, at the method's indentation.
                let method_indent = &line[indent..line.len() - trimmed.len()];
                fusion
                    .as_ref()
                    .map(|fusion| format!("{method_indent}{fusion}\n"))
            } else {
                let line = line.get(indent..).unwrap_or("").trim_end();
                Some(format!(
                    "{}\n",
                    line.replace(&argument, tensor_argument(op))
                ))
            }
        })
        .collect();
    without_bookkeeping(&text)
}

/// The cfg attribute the declaration puts on `Autodiff` (`#[cfg(feature = "autodiff")]`), read
/// from its selectors as written; empty when `Autodiff` is listed plainly or not at all.
pub fn autodiff_gate(declaration: Declaration) -> String {
    declaration
        .selectors()
        .split_once("Autodiff:")
        .map(|(_, cfg)| format!("#[{}]\n", cfg.trim()))
        .unwrap_or_default()
}

/// Puts `gate` (a cfg attribute, or nothing) on every item of `items`: after an item's doc
/// comment, before its first attribute or keyword line.
pub fn gated_items(gate: &str, items: &str) -> String {
    if gate.is_empty() {
        return items.trim_end().to_owned();
    }
    let mut out = String::new();
    let mut at_item_start = true;
    for line in items.trim_end().lines() {
        if at_item_start && !line.trim().is_empty() && !line.starts_with([' ', '/']) {
            out.push_str(gate);
            at_item_start = false;
        }
        out.push_str(line);
        out.push('\n');
        if line == "}" || line.ends_with(';') && !line.starts_with(' ') {
            at_item_start = true;
        }
    }
    out.trim_end().to_owned()
}

/// The op's declaration as the page shows it in a fix: the trait under `declaration`'s selectors
/// and, when the declaration lists `Autodiff`, the op's `Autodiff<B, C>` implementation (behind
/// the same cfg as the selector). Exactly as it stands in the exported `src/main.rs`.
pub fn declaration_code(op: OpKind, declaration: Declaration) -> String {
    let mut code = trait_declaration(op, declaration).trim_end().to_owned();
    if declaration.autodiff() != AutodiffDeclared::Absent {
        code.push_str("\n\n");
        code.push_str(&gated_items(
            &autodiff_gate(declaration),
            &without_bookkeeping(sources(op).autodiff),
        ));
    }
    code
}

/// A function the ops share (`src/ops/mod.rs`), with its doc comment, as a person writes it in
/// their own crate: without its cfg attribute (the engine builds it only with fusion; the exported
/// project only has it when it needs it) and without `pub`.
pub fn shared_function(name: &str) -> Option<String> {
    let lines: Vec<&str> = include_str!("../../ops/mod.rs").lines().collect();
    let header = lines
        .iter()
        .position(|line| line.starts_with(&format!("pub fn {name}")))?;
    let first = (0..header)
        .rev()
        .take_while(|&index| lines[index].starts_with("///") || lines[index].starts_with("#["))
        .last()
        .unwrap_or(header);
    let last = (header..lines.len()).find(|&index| lines[index] == "}")?;
    Some(
        lines[first..=last]
            .iter()
            .filter(|line| !line.starts_with("#[cfg("))
            .map(|line| format!("{}\n", line.strip_prefix("pub ").unwrap_or(line)))
            .collect(),
    )
}
