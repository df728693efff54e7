//! "Take it home" for a declaration written in the editor: a Cargo project holding the text as it
//! was written, an impl of each of its traits for every backend the attribute lists, and a `main`.
//!
//! What the impls run comes from the data, never from a guess at what a method means:
//! - a method whose signature is one of the playground's ops' (token for token, as the expander
//!   read both: [`OpMethod`]) runs that op on each backend — the same source files the engine
//!   compiles ([`crate::teach::code::op_sources`]), the op's trait name replaced by the text's;
//! - any other method gets a `todo!()` body, unless the trait gives it a default body, which then
//!   serves every backend.
//!
//! When the scenario's op is among the methods, `main` calls it on the scenario's input through
//! the routing burn's macro generated for the text, as the scenario's own project does
//! ([`super::project`]); otherwise `main` prints what is left to write. `tests/export.rs` builds
//! and runs such projects.

use std::collections::BTreeSet;

use macro_expander::{Method, Outline, Selector, TraitOutline};

use super::project::{
    FILES, KERNEL_DEPENDENCIES, Project, ProjectFile, main_fn, op_function, package_header,
    uses as project_uses,
};
use crate::model::scenario::{Declaration, Fix, OpKind, Scenario};
use crate::teach::code::op_sources::{
    shared_function, sources, trait_declaration, without_bookkeeping,
};
use crate::teach::words::explain::and_list;

/// A playground op's method, as the expander outlined the op's own declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpMethod {
    /// The op.
    pub op: OpKind,
    /// Its method's signature tokens ([`Method::signature`]).
    pub signature: String,
}

impl OpMethod {
    /// The ops' methods from the expander's outlines of their declarations.
    pub fn from_outlines<'a>(
        outlines: impl IntoIterator<Item = (OpKind, &'a Outline)>,
    ) -> Vec<OpMethod> {
        let mut methods: Vec<OpMethod> = Vec::new();
        for (op, outline) in outlines {
            for method in outline.traits.iter().flat_map(|each| &each.methods) {
                let found = OpMethod {
                    op,
                    signature: method.signature.clone(),
                };
                if !methods.contains(&found) {
                    methods.push(found);
                }
            }
        }
        methods
    }
}

/// The declaration the ops' methods are outlined from: each op's line with `Cube` alone.
pub const OUTLINED_LINE: Declaration = Declaration::Cube;

/// What an impl runs for a method.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Body {
    /// The playground's op of the same signature.
    Op(OpKind),
    /// The trait's own default body.
    Default,
    /// Nothing yet: `todo!()`.
    Todo,
}

fn body_of(method: &Method, ops: &[OpMethod]) -> Body {
    match ops.iter().find(|op| op.signature == method.signature) {
        Some(op) => Body::Op(op.op),
        None if method.has_default => Body::Default,
        None => Body::Todo,
    }
}

/// A type an impl is for, and the cfg it is compiled under.
struct Target {
    /// The type, as `main.rs` names it.
    type_name: &'static str,
    /// The impl target the op's source files name for it (`Cube`, `Flex`, `Autodiff<B, C>`).
    source_name: Option<&'static str>,
    /// What a person reads: `Cube (burn's CubeCL backend)`.
    label: String,
    cfg: Option<String>,
}

/// `cfg (feature = "x")` as tokens print it, laid out as a person writes it.
fn tidy(tokens: &str) -> String {
    tokens
        .replace(" (", "(")
        .replace("( ", "(")
        .replace(" )", ")")
        .replace(" ,", ",")
        .replace("! ", "!")
}

/// The predicate inside `cfg(...)`, when the meta is one.
fn cfg_predicate(meta: &str) -> Option<String> {
    let meta = tidy(meta);
    let inside = meta.strip_prefix("cfg(")?.strip_suffix(')')?;
    Some(inside.to_owned())
}

fn selector<'a>(outline: &'a TraitOutline, name: &str) -> Option<&'a Selector> {
    outline
        .selectors
        .iter()
        .find(|selector| selector.name == name)
}

/// The impls a trait needs: one per concrete backend listed, and `Autodiff<B, C>`. With `Fusion`
/// listed, burn's `fusion` feature makes `Cube` the fused backend, whose impl the macro emits:
/// the CubeCL backend under it gets the impl (both, each under its cfg, when `Fusion` has one).
fn targets(outline: &TraitOutline) -> Vec<Target> {
    let fusion =
        selector(outline, "Fusion").map(|fusion| fusion.cfg.as_deref().and_then(cfg_predicate));
    let mut found = Vec::new();
    for selector in &outline.selectors {
        match selector.name.as_str() {
            "Cube" => match &fusion {
                None => found.push(Target {
                    type_name: "Cube",
                    source_name: Some("Cube"),
                    label: "Cube".to_owned(),
                    cfg: None,
                }),
                Some(gate) => {
                    found.push(Target {
                        type_name: "CubeBackend",
                        source_name: Some("Cube"),
                        label: "CubeBackend (the CubeCL backend under Fusion)".to_owned(),
                        cfg: gate.clone(),
                    });
                    if let Some(gate) = gate {
                        found.push(Target {
                            type_name: "Cube",
                            source_name: Some("Cube"),
                            label: format!("Cube (when {gate} is false)"),
                            cfg: Some(format!("not({gate})")),
                        });
                    }
                }
            },
            "Flex" => found.push(Target {
                type_name: "Flex",
                source_name: Some("Flex"),
                label: "Flex".to_owned(),
                cfg: None,
            }),
            "Autodiff" => found.push(Target {
                type_name: "Autodiff<B, C>",
                source_name: Some("Autodiff<B, C>"),
                label: "Autodiff<B, C>".to_owned(),
                cfg: None,
            }),
            "Fusion" => {}
            other => {
                // The macro accepted it, so it is in its backend catalog: burn names the type so.
                if let Some(&name) = OTHER_BACKENDS.iter().find(|name| **name == other) {
                    found.push(Target {
                        type_name: name,
                        source_name: None,
                        label: name.to_owned(),
                        cfg: None,
                    });
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    found.retain(|target| seen.insert((target.type_name, target.cfg.clone())));
    found
}

/// The macro's other concrete backends, as `burn::backend` names their types.
const OTHER_BACKENDS: [&str; 4] = ["NdArray", "LibTorch", "Remote", "Capture"];

/// The lines of the block `impl … for {target} {`…`}` in `text`, if there is one.
fn impl_block<'a>(text: &'a str, target: &str) -> Option<Vec<&'a str>> {
    let header = format!(" for {target} {{");
    let lines: Vec<&str> = text.lines().collect();
    let start = lines.iter().position(|line| line.ends_with(&header))?;
    let end = (start..lines.len()).find(|&index| lines[index] == "}")?;
    Some(lines[start + 1..end].to_vec())
}

/// The item `fn {name}(…) { … }` among `lines`, dedented to column 0.
fn fn_item(lines: &[&str], name: &str) -> Option<String> {
    let head = format!("fn {name}(");
    let start = lines
        .iter()
        .position(|line| line.trim_start().starts_with(&head))?;
    let indent = lines[start].len() - lines[start].trim_start().len();
    let closing = format!("{}}}", " ".repeat(indent));
    let end = (start..lines.len()).find(|&index| lines[index] == closing)?;
    Some(
        lines[start..=end]
            .iter()
            .map(|line| format!("{}\n", line.get(indent..).unwrap_or("").trim_end()))
            .collect(),
    )
}

/// `text` with every whole-word `from` replaced by `to`.
fn replace_word(text: &str, from: &str, to: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(from) {
        let before = rest[..at].chars().next_back();
        let after = rest[at + from.len()..].chars().next();
        let is_word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
        out.push_str(&rest[..at]);
        out.push_str(if is_word(before) || is_word(after) {
            from
        } else {
            to
        });
        rest = &rest[at + from.len()..];
    }
    out.push_str(rest);
    out
}

/// What the export puts together for one trait.
struct Written {
    impls: String,
    /// The ops whose source the impls run, and whether any ran the op's `Autodiff<B, C>` method.
    ops: Vec<(OpKind, bool)>,
    /// Per method: its name and what it runs.
    bodies: Vec<(String, Body)>,
    targets: Vec<String>,
}

fn write_impls(outline: &TraitOutline, ops: &[OpMethod]) -> Written {
    let name = &outline.name;
    let mut written = Written {
        impls: String::new(),
        ops: Vec::new(),
        bodies: outline
            .methods
            .iter()
            .map(|method| (method.name.clone(), body_of(method, ops)))
            .collect(),
        targets: Vec::new(),
    };
    for target in targets(outline) {
        let mut items = Vec::new();
        for (method, (_, body)) in outline.methods.iter().zip(&written.bodies) {
            let item = match *body {
                Body::Op(op) => op_item(op, method, &target, &mut written.ops),
                Body::Default => None,
                Body::Todo => Some(method.stub.clone() + "\n"),
            };
            if let Some(mut item) = item {
                if let Body::Op(op) = *body {
                    item = replace_word(&item, op.trait_name(), name);
                }
                items.push(
                    item.lines()
                        .map(|line| {
                            if line.is_empty() {
                                "\n".to_owned()
                            } else {
                                format!("    {line}\n")
                            }
                        })
                        .collect::<String>(),
                );
            }
        }
        if let Some(cfg) = &target.cfg {
            written.impls.push_str(&format!("#[cfg({cfg})]\n"));
        }
        if written.bodies.iter().any(|(_, body)| *body == Body::Todo) {
            // A `todo!()` body reads none of its arguments yet.
            written.impls.push_str("#[allow(unused_variables)]\n");
        }
        let header = if target.type_name.starts_with("Autodiff") {
            format!("impl<B: Backend + {name}, C: CheckpointStrategy> {name} for Autodiff<B, C>")
        } else {
            format!("impl {name} for {}", target.type_name)
        };
        if items.is_empty() {
            written.impls.push_str(&format!("{header} {{}}\n\n"));
        } else {
            written
                .impls
                .push_str(&format!("{header} {{\n{}}}\n\n", items.join("\n")));
        }
        written.targets.push(target.label);
    }
    written
}

fn note_use(used: &mut Vec<(OpKind, bool)>, found: (OpKind, bool)) {
    if !used.contains(&found) {
        used.push(found);
    }
}

/// The op's method as the op's source implements it for `target`: its impl's method, or, where
/// its impl for the target is empty or absent, its trait's default body (left out when the
/// text's trait has its own default body, which then serves).
fn op_item(
    op: OpKind,
    method: &Method,
    target: &Target,
    used: &mut Vec<(OpKind, bool)>,
) -> Option<String> {
    let op_sources = sources(op);
    if let Some(source_name) = target.source_name {
        let autodiff = source_name.starts_with("Autodiff");
        let text = without_bookkeeping(if autodiff {
            op_sources.autodiff
        } else {
            op_sources.concrete
        });
        if let Some(item) =
            impl_block(&text, source_name).and_then(|lines| fn_item(&lines, &method.name))
        {
            note_use(used, (op, autodiff));
            return Some(item);
        }
    }
    note_use(used, (op, false));
    if method.has_default {
        return None;
    }
    let declaration = trait_declaration(op, OUTLINED_LINE);
    let lines: Vec<&str> = declaration.lines().collect();
    Some(fn_item(&lines, &method.name).unwrap_or_else(|| method.stub.clone() + "\n"))
}

/// The names a `use` brings in for `main.rs`, with their paths in burn 0.22.1 (and the kernel's
/// crates). A name the text defines or imports itself is never imported over.
const IMPORTS: [(&str, &str); 36] = [
    ("Autodiff", "burn::backend::autodiff::Autodiff"),
    ("Backend", "burn::backend::Backend"),
    ("Backward", "burn::backend::autodiff::ops::Backward"),
    ("Bool", "burn::tensor::Bool"),
    ("BoolTensor", "burn::backend::tensor::BoolTensor"),
    ("Capture", "burn::backend::Capture"),
    (
        "CheckpointStrategy",
        "burn::backend::autodiff::checkpoint::strategy::CheckpointStrategy",
    ),
    (
        "Checkpointer",
        "burn::backend::autodiff::checkpoint::base::Checkpointer",
    ),
    ("Cube", "burn::backend::Cube"),
    ("CubeBackend", "burn::backend::wgpu::CubeBackend"),
    ("CubeCount", "cubecl::CubeCount"),
    ("CubeDim", "cubecl::CubeDim"),
    ("CubeTensor", "burn_cubecl::tensor::CubeTensor"),
    ("Device", "burn::tensor::Device"),
    ("Dispatch", "burn::backend::Dispatch"),
    ("ExtensionType", "burn::backend::ExtensionType"),
    ("Flex", "burn::backend::Flex"),
    ("FloatTensor", "burn::backend::tensor::FloatTensor"),
    ("FloatTensorOps", "burn::backend::ops::FloatTensorOps"),
    ("Gradients", "burn::backend::autodiff::grads::Gradients"),
    ("InputScalar", "cubecl::prelude::InputScalar"),
    ("Int", "burn::tensor::Int"),
    ("IntTensor", "burn::backend::tensor::IntTensor"),
    ("IntTensorOps", "burn::backend::ops::IntTensorOps"),
    ("LibTorch", "burn::backend::LibTorch"),
    ("NdArray", "burn::backend::NdArray"),
    ("Ops", "burn::backend::autodiff::ops::Ops"),
    ("OpsKind", "burn::backend::autodiff::ops::OpsKind"),
    ("Remote", "burn::backend::Remote"),
    ("Shape", "burn::tensor::Shape"),
    ("Tensor", "burn::tensor::Tensor"),
    ("TensorData", "burn::tensor::TensorData"),
    ("TensorMetadata", "burn::backend::TensorMetadata"),
    ("backend_extension", "burn::backend::backend_extension"),
    ("into_contiguous", "burn_cubecl::kernel::into_contiguous"),
    (
        "dtype_to_storage_type",
        "burn::backend::cubecl::dtype_to_storage_type",
    ),
];

/// The identifiers `code` uses outside comments, string literals and inner `mod … { }` blocks
/// (which import for themselves, as the kernel's module does).
fn identifiers(code: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut in_module = false;
    for line in code.lines() {
        if in_module {
            in_module = line != "}";
            continue;
        }
        let trimmed = line.trim_start();
        if trimmed.starts_with("//") {
            continue;
        }
        if line.starts_with("mod ") && line.ends_with('{') {
            in_module = true;
            continue;
        }
        let mut in_string = false;
        let mut escaped = false;
        let mut word = String::new();
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            if in_string {
                in_string = c != '"' || escaped;
                escaped = c == '\\' && !escaped;
                continue;
            }
            if c.is_alphanumeric() || c == '_' {
                word.push(c);
                continue;
            }
            if !word.is_empty() {
                found.insert(std::mem::take(&mut word));
            }
            if c == '/' && chars.peek() == Some(&'/') {
                // A comment after code: the rest of the line is words, not code.
                break;
            }
            in_string = c == '"';
        }
        if !word.is_empty() {
            found.insert(word);
        }
    }
    found
}

/// The traits whose methods an op's source calls (`x.shape()`, `Flex::float_mul_scalar`): no
/// name in the code says so, so they come with the op's source when its project imports them.
const METHOD_TRAITS: [&str; 2] = ["FloatTensorOps", "TensorMetadata"];

/// The `use` lines for `code`, which holds the source of `ops`.
fn uses(code: &str, outline: &Outline, ops: &[OpKind]) -> String {
    let mut used = identifiers(code);
    for &op in ops {
        let imported = identifiers(&project_uses(op, OUTLINED_LINE));
        used.extend(
            METHOD_TRAITS
                .iter()
                .filter(|name| imported.contains(**name))
                .map(|name| (*name).to_owned()),
        );
    }
    let mut lines: Vec<String> = IMPORTS
        .iter()
        .filter(|(name, _)| {
            used.contains(*name)
                && !outline.defined.iter().any(|defined| defined == name)
                && !outline.imported.iter().any(|imported| imported == name)
        })
        .map(|(_, path)| format!("use {path};\n"))
        .collect();
    lines.sort();
    lines.concat()
}

/// The exported project of `text`, whose outline is `outline`; `ops` are the playground's ops'
/// methods, `scenario` the page's scenario (whose op `main` calls when the text has it).
pub fn export_edited(
    text: &str,
    outline: &Outline,
    ops: &[OpMethod],
    scenario: &Scenario,
) -> Project {
    let name = package_name(outline);
    let written: Vec<Written> = outline
        .traits
        .iter()
        .map(|each| write_impls(each, ops))
        .collect();
    let used: Vec<(OpKind, bool)> = written.iter().flat_map(|each| each.ops.clone()).collect();
    let text_words = identifiers(text);
    let mut support = Vec::new();
    for op in OpKind::ALL {
        let op_sources = sources(op);
        let called = used.iter().any(|(used_op, _)| *used_op == op)
            || defined_functions(op_sources.support)
                .iter()
                .any(|function| {
                    text_words.contains(function) && !outline.defined.contains(function)
                });
        if used.contains(&(op, true)) && !op_sources.autodiff_support.is_empty() {
            support.push(op_support(op_sources.autodiff_support, op, outline, ops));
        }
        if called {
            support.push(op_support(op_sources.support, op, outline, ops));
        }
    }
    for shared in ["same_spec"] {
        if text_words.contains(shared)
            && !outline.defined.iter().any(|defined| defined == shared)
            && let Some(function) = shared_function(shared)
        {
            support.push(function.trim_end().to_owned());
        }
    }
    let kernel = used.iter().any(|(op, _)| *op == OpKind::Scale);
    // `main` calls the scenario's op when one of the traits has its method.
    let call = outline.traits.iter().find_map(|each| {
        each.methods
            .iter()
            .any(|method| body_of(method, ops) == Body::Op(scenario.args.kind()))
            .then_some(each.name.as_str())
    });
    let (main, summary) = main_and_summary(outline, &written, call, scenario);
    let code = format!(
        "{}\n\n{}{}{main}",
        text.trim_end(),
        written
            .iter()
            .map(|each| each.impls.as_str())
            .collect::<String>(),
        support
            .iter()
            .map(|item| format!("{}\n\n", item.trim_end()))
            .collect::<String>(),
    );
    let main_rs = format!(
        "//! {}, written in the Burn Extension Playground's editor.\n//!\n//! The declaration \
         is exactly as written there; README.md says what the impls below run.\n\n{}\n{code}",
        trait_names(outline),
        uses(
            &code,
            outline,
            &OpKind::ALL
                .into_iter()
                .filter(|op| used.iter().any(|(used_op, _)| used_op == op))
                .collect::<Vec<_>>()
        ),
    );
    let files = FILES
        .iter()
        .map(|&path| ProjectFile {
            path: path.to_owned(),
            text: match path {
                "Cargo.toml" => cargo_toml(&name, outline, kernel),
                "src/main.rs" => main_rs.clone(),
                _ => readme(&name, outline, call, scenario, &summary),
            },
        })
        .collect();
    Project { name, files }
}

/// An op's support text for `main.rs`, its trait name replaced by the trait that has its method.
fn op_support(text: &str, op: OpKind, outline: &Outline, ops: &[OpMethod]) -> String {
    let owner = outline.traits.iter().find(|each| {
        each.methods
            .iter()
            .any(|method| body_of(method, ops) == Body::Op(op))
    });
    match owner {
        Some(owner) => replace_word(text, op.trait_name(), &owner.name),
        None => text.to_owned(),
    }
}

/// The functions `text` defines at its top level.
fn defined_functions(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let rest = line
                .strip_prefix("pub ")
                .unwrap_or(line)
                .strip_prefix("fn ")?;
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_'))?;
            Some(rest[..end].to_owned())
        })
        .collect()
}

fn trait_names(outline: &Outline) -> String {
    let names: Vec<String> = outline
        .traits
        .iter()
        .map(|each| format!("`{}`", each.name))
        .collect();
    names.join(", ")
}

/// `ScaleOps` → `scale-ops`.
fn package_name(outline: &Outline) -> String {
    let first = outline
        .traits
        .first()
        .map_or("declaration", |each| each.name.as_str());
    // A word starts at an upper-case letter after a lower-case one or a digit, or before a
    // lower-case one after upper-case ones (`GPUOps` → `gpu-ops`).
    let chars: Vec<char> = first.chars().collect();
    let mut name = String::new();
    for (index, &c) in chars.iter().enumerate() {
        let before = index.checked_sub(1).map(|at| chars[at]);
        let after = chars.get(index + 1);
        let starts_word = c.is_uppercase()
            && (before.is_some_and(|b| b.is_lowercase() || b.is_ascii_digit())
                || (before.is_some_and(char::is_uppercase)
                    && after.is_some_and(|a| a.is_lowercase())));
        if starts_word {
            name.push('-');
        }
        if c.is_ascii_alphanumeric() {
            name.push(c.to_ascii_lowercase());
        } else if c == '_' {
            name.push('-');
        }
    }
    let name = name.trim_matches('-').replace("--", "-");
    if name.is_empty() || !name.starts_with(|c: char| c.is_ascii_alphabetic()) {
        format!("declaration-{name}")
            .trim_end_matches('-')
            .to_owned()
    } else {
        name
    }
}

/// A sentence per trait: what its impls are for, and what each method runs there.
fn summary_lines(outline: &Outline, written: &[Written]) -> Vec<String> {
    outline
        .traits
        .iter()
        .zip(written)
        .map(|(each, written)| {
            let mut line = format!(
                "`{}` is implemented for {}.",
                each.name,
                if written.targets.is_empty() {
                    "no backend".to_owned()
                } else {
                    and_list(&written.targets)
                }
            );
            for (method, body) in &written.bodies {
                line.push_str(&match body {
                    Body::Op(op) => format!(
                        " `{method}` has the signature of the playground's `{}` and runs its code.",
                        op.name()
                    ),
                    Body::Default => format!(" `{method}` runs its default body."),
                    Body::Todo => format!(" `{method}` is `todo!()`: write its body."),
                });
            }
            line
        })
        .collect()
}

fn main_and_summary(
    outline: &Outline,
    written: &[Written],
    call: Option<&str>,
    scenario: &Scenario,
) -> (String, Vec<String>) {
    let summary = summary_lines(outline, written);
    let main = match call {
        Some(trait_name) => {
            let op = scenario.args.kind();
            let scenario = Scenario {
                fix: Fix::None,
                ..scenario.clone()
            };
            format!(
                "{}\n\n{}",
                replace_word(op_function(op), op.trait_name(), trait_name),
                main_fn(&scenario)
            )
        }
        None => {
            let prints: String = summary
                .iter()
                .map(|line| format!("    println!({line:?});\n"))
                .collect();
            format!("fn main() {{\n{prints}}}\n")
        }
    };
    (main, summary)
}

fn cargo_toml(name: &str, outline: &Outline, kernel: bool) -> String {
    let mut burn_features: Vec<String> = ["std", "extension", "autodiff", "wgpu", "flex"]
        .map(str::to_owned)
        .to_vec();
    let mut own_features: Vec<(String, bool)> = Vec::new();
    for selector in outline.traits.iter().flat_map(|each| &each.selectors) {
        let fusion = selector.name == "Fusion";
        if fusion && selector.cfg.is_none() {
            burn_features.push("fusion".to_owned());
        }
        // The backend catalog's cfg inside burn names the feature burn compiles the backend under.
        if let Some(feature) = selector
            .catalog_cfg
            .as_deref()
            .and_then(|cfg| cfg.strip_prefix("feature = \""))
            .and_then(|cfg| cfg.strip_suffix('"'))
        {
            burn_features.push(feature.to_owned());
        }
        for feature in &selector.features {
            match own_features.iter_mut().find(|(name, _)| name == feature) {
                Some((_, turns_on_fusion)) => *turns_on_fusion |= fusion,
                None => own_features.push((feature.clone(), fusion)),
            }
        }
    }
    let mut seen = BTreeSet::new();
    burn_features.retain(|feature| seen.insert(feature.clone()));
    let features: Vec<String> = burn_features
        .iter()
        .map(|feature| format!("{feature:?}"))
        .collect();
    let own = if own_features.is_empty() {
        String::new()
    } else {
        let lines: String = own_features
            .iter()
            .map(|(feature, fusion)| {
                if *fusion {
                    format!("{feature} = [\"burn/fusion\"]\n")
                } else {
                    format!("{feature} = []\n")
                }
            })
            .collect();
        format!(
            "\n[features]\n# The features the attribute's cfgs test, all off by default.\n{lines}"
        )
    };
    format!(
        "{}\
         # burn 0.22.1, whose macro expanded the declaration in the playground.\n\
         burn = {{ version = \"=0.22.1\", default-features = false, features = [{}] }}\n\
         {}{own}",
        package_header(name),
        features.join(", "),
        if kernel { KERNEL_DEPENDENCIES } else { "" },
    )
}

fn readme(
    name: &str,
    outline: &Outline,
    call: Option<&str>,
    scenario: &Scenario,
    summary: &[String],
) -> String {
    let run = match call {
        Some(trait_name) => format!(
            "`cargo run` calls `{op}` through the routing burn's macro generated for `{trait_name}`, \
             on the scenario's input (on {backend}{grad}). The playground did not run this \
             declaration: its engine runs only the declarations it was built with.",
            op = scenario.args.kind().name(),
            backend = match scenario.backend {
                crate::model::scenario::BackendChoice::Gpu => "WebGPU, Vulkan, Metal or DX12",
                crate::model::scenario::BackendChoice::Cpu => "the CPU backend, burn-flex",
            },
            grad = if scenario.grad_context {
                ", in a grad context"
            } else {
                ""
            },
        ),
        None => "`cargo run` prints the lines above.".to_owned(),
    };
    let others: Vec<&str> = outline
        .traits
        .iter()
        .flat_map(|each| &each.selectors)
        .filter(|selector| OTHER_BACKENDS.contains(&selector.name.as_str()))
        .map(|selector| selector.name.as_str())
        .collect();
    let other_note = if others.is_empty() {
        String::new()
    } else {
        format!(
            "\n{} turn on burn's feature of the same backend (in Cargo.toml), which builds that \
             backend's own dependencies.\n",
            others
                .iter()
                .map(|name| format!("`{name}`"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    format!(
        "# {name}\n\n\
         {}, as written in the Burn Extension Playground's editor, with an impl for each backend \
         its attribute lists.\n\n\
         ```sh\ncargo build\ncargo run\n```\n\n\
         {}\n\n{run}\n\n\
         burn-backend-extension 0.22.1's own code expanded this declaration in the page without \
         an error. rustc's type checks run only when the project is built.\n{other_note}",
        trait_names(outline),
        summary.join("\n"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn package_names_come_from_the_first_trait() {
        let named = |name: &str| Outline {
            traits: vec![TraitOutline {
                name: name.to_owned(),
                ..TraitOutline::default()
            }],
            ..Outline::default()
        };
        assert_eq!(package_name(&named("ScaleOps")), "scale-ops");
        assert_eq!(package_name(&named("My_GPUOps")), "my-gpu-ops");
        assert_eq!(package_name(&named("_9")), "declaration-9");
        assert_eq!(package_name(&Outline::default()), "declaration");
    }

    #[test]
    fn a_cfg_is_read_as_its_predicate() {
        assert_eq!(
            cfg_predicate("cfg (all (feature = \"a\" , not (feature = \"b\")))").as_deref(),
            Some("all(feature = \"a\", not(feature = \"b\"))")
        );
        assert_eq!(cfg_predicate("doc"), None);
    }

    #[test]
    fn only_whole_words_are_renamed() {
        assert_eq!(
            replace_word(
                "impl<B: ScaleOps> X for ScaleOpsExt, MyScaleOps, ScaleOps",
                "ScaleOps",
                "T"
            ),
            "impl<B: T> X for ScaleOpsExt, MyScaleOps, T"
        );
    }

    #[test]
    fn identifiers_skip_comments_strings_and_inner_modules() {
        let code = "/// Tensor in a doc\nfn f(x: Backend) { let s = \"Flex \\\" Cube\"; } // Dispatch\nmod kernel {\n    use cubecl::prelude::*;\n    fn g(t: Tensor) {}\n}\nconst N: Device = 1;\n";
        let found = identifiers(code);
        for name in [
            "fn", "f", "x", "Backend", "let", "s", "const", "N", "Device",
        ] {
            assert!(found.contains(name), "{name}");
        }
        for name in ["Tensor", "Flex", "Cube", "Dispatch", "cubecl", "g"] {
            assert!(!found.contains(name), "{name}");
        }
    }
}
