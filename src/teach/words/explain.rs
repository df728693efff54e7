//! What a panic means, and the fixes for it: each fix a change to the scenario (applied by a
//! button) and a before/after snippet of the op's declaration or its call.
//!
//! The kind of panic is read from what the run recorded — the captured message, the routing
//! tensor as it entered the generated routing, the step of the run that raised it — and from the
//! declaration whose generated code ran; never from the toggles of the scenario that was asked
//! for. Only which fixes apply to it is decided here. Every snippet is code of an exported
//! project ([`crate::teach::code`]), which `tests/export.rs` builds and runs, and each fix's
//! description is checked against the run of the fixed scenario (`tests/claims/`).

use crate::model::catalog::FusionForm;
use crate::model::outcome::{PanicReport, Stage};
use crate::model::scenario::{AutodiffDeclared, BackendChoice, Declaration, Fix, OpKind, Scenario};
use crate::teach::code::op_sources::declaration_code;
use crate::teach::code::snippets::{
    CallSite, GRAD_CONTEXT_CODE, REQUIRE_GRAD_CODE, call_code, device_code, input_code,
};
use crate::teach::form::Form;
use crate::teach::routing::route_view::Observed;
use crate::teach::words::present::panic_location_text;

/// The panics the playground explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PanicKind {
    /// The routing's fallback arm, for an autodiff-wrapped routing tensor on a backend the
    /// declaration lists: no arm takes a wrapped tensor. `cfg_off`: the declaration lists
    /// `Autodiff` behind a cfg that is off.
    WrappedTensorHasNoArm { backend: String, cfg_off: bool },
    /// The routing's fallback arm, for a routing tensor on a backend the declaration does not
    /// list. `wrapped`: the tensor was autodiff-wrapped too.
    BackendHasNoArm { backend: String, wrapped: bool },
    /// A concrete arm refusing the enabled autodiff context of an unwrapped (int) routing
    /// tensor. `cfg_off` as above.
    ContextRefused { backend: String, cfg_off: bool },
    /// `require_grad()` on a tensor outside an autodiff device: the run recorded that it was
    /// marking its input when burn panicked.
    RequireGradOutsideAutodiff,
    /// Under fusion, a panic reading the output back, for a declaration whose
    /// `#[fusion(shape = …)]` is not the kernel's shape (the catalog's flattened form).
    /// `kernel_ran`: whether the queued kernel had run (recorded itself) before the panic;
    /// `read_back`: whether it was raised reading the output back (else by the next op of a
    /// model's forward pass).
    /// `location`: where the run recorded the panic, as the page shows it.
    FusionShape {
        kernel_ran: bool,
        read_back: bool,
        location: Option<String>,
    },
    /// Anything else.
    Other,
}

impl PanicKind {
    /// Reads a panic `report` raised while the generated code of `declaration` ran.
    pub fn of(report: &PanicReport, declaration: Declaration) -> PanicKind {
        let cfg_off = declaration.autodiff() == AutodiffDeclared::CfgOff;
        if report.stage == Some(Stage::RequireGrad) {
            return PanicKind::RequireGradOutsideAutodiff;
        }
        // Not a routing panic: where the wrong declared shape is first used. In a single run
        // that is the read back; in training, the model's next op in the forward pass.
        if declaration.fusion() == FusionForm::WrongShape
            && Observed::from_panic(&report.message).is_none()
            && let Some(stage @ (Stage::ReadBack | Stage::Forward)) = report.stage
        {
            return PanicKind::FusionShape {
                kernel_ran: report
                    .impls
                    .iter()
                    .any(|call| call.implementor == "CubeBackend"),
                read_back: stage == Stage::ReadBack,
                location: report.location.as_ref().map(panic_location_text),
            };
        }
        let Some(tensor) = &report.routing_tensor else {
            return PanicKind::Other;
        };
        let backend = tensor.backend.clone();
        let listed = declaration.backend_tag(&backend).is_some();
        match Observed::from_panic(&report.message) {
            Some(Observed::BackendNotSupported) if !listed => PanicKind::BackendHasNoArm {
                backend,
                wrapped: tensor.autodiff_wrapped,
            },
            Some(Observed::BackendNotSupported) if tensor.autodiff_wrapped => {
                PanicKind::WrappedTensorHasNoArm { backend, cfg_off }
            }
            Some(Observed::AutodiffNotSupported) => PanicKind::ContextRefused { backend, cfg_off },
            _ => PanicKind::Other,
        }
    }

    /// What happened, in a few sentences.
    pub fn meaning(&self) -> String {
        match self {
            PanicKind::WrappedTensorHasNoArm {
                backend,
                cfg_off: false,
            } => format!(
                "The input lives on an autodiff device, so its dispatch tensor is autodiff-wrapped: DispatchTensorKind::Autodiff({backend}(…)). The op's declaration lists no Autodiff selector, so the generated match that picks the backend has no arm for a wrapped tensor; the tag becomes usize::MAX and the fallback arm panics."
            ),
            PanicKind::WrappedTensorHasNoArm {
                backend,
                cfg_off: true,
            } => format!(
                "The input lives on an autodiff device, so its dispatch tensor is autodiff-wrapped: DispatchTensorKind::Autodiff({backend}(…)). The declaration does list Autodiff, but behind cfg(feature = \"autodiff\"), and the feature is off: the arm for wrapped tensors was compiled out with it, so the tag becomes usize::MAX and the fallback arm panics."
            ),
            PanicKind::BackendHasNoArm {
                backend,
                wrapped: false,
            } => format!(
                "The input lives on the {backend} backend, and the op's declaration does not list {backend}. The match that picks the backend has no {backend} arm, so the fallback arm panics — even though a {backend} implementation of the op exists."
            ),
            PanicKind::BackendHasNoArm {
                backend,
                wrapped: true,
            } => format!(
                "The input lives on the {backend} backend, on an autodiff device: DispatchTensorKind::Autodiff({backend}(…)). The op's declaration does not list {backend}, so the match that picks the backend has no arm for it, wrapped or not, and the fallback arm panics — even though a {backend} implementation of the op exists."
            ),
            PanicKind::ContextRefused {
                backend,
                cfg_off: false,
            } => format!(
                "The input is an int tensor. Autodiff never wraps ints, so the backend match finds the concrete {backend} arm. That arm's first statement checks the merged autodiff context; the tensor was created on an autodiff device, so the context is Enabled, and without the Autodiff selector the arm refuses it."
            ),
            PanicKind::ContextRefused {
                backend,
                cfg_off: true,
            } => format!(
                "The input is an int tensor. Autodiff never wraps ints, so the backend match finds the concrete {backend} arm. There the autodiff context is matched: the arm for an Enabled context carries cfg(feature = \"autodiff\"), the feature is off, so only Disabled and the fallback arm are left — and the fallback refuses the Enabled context, although the declaration lists Autodiff."
            ),
            PanicKind::RequireGradOutsideAutodiff => {
                "require_grad() marks a tensor for the autodiff graph, and there is no graph outside an autodiff device. burn refused while the input was being marked, before the custom op was called.".to_owned()
            }
            PanicKind::FusionShape {
                kernel_ran,
                read_back,
                location,
            } => format!(
                "Under Fusion the op is queued, and its output's shape is the one the method's #[fusion(shape = …)] declares, worked out before the kernel runs: here the input flattened to one dimension. burn never compares it with the shape the kernel writes. {}{}.",
                match (read_back, location) {
                    (true, Some(location)) => {
                        format!("The run recorded the panic at {location}, in the read-back step")
                    }
                    (true, None) => "The run recorded the panic in the read-back step".to_owned(),
                    (false, _) => "In the model's forward pass, the next op took its input's dimensions from that declared shape and panicked".to_owned(),
                },
                if *kernel_ran {
                    ", after the queued kernel had run"
                } else {
                    ", before the queued kernel had run"
                }
            ),
            PanicKind::Other => "burn raised this panic while the scenario ran.".to_owned(),
        }
    }

    /// Where burn 0.22.1 differs from the usual story, when it does.
    pub fn surprise(&self) -> Option<&'static str> {
        match self {
            PanicKind::WrappedTensorHasNoArm { cfg_off: false, .. } => Some(
                "This is not the “Autodiff not supported…” message: in burn 0.22.1 a float op's wrapped input fails the backend match first, as the highlighted fallback arm shows. The arm with the “Autodiff not supported…” check is only reached by ops whose routing tensor is not wrapped — int tensors.",
            ),
            PanicKind::WrappedTensorHasNoArm { cfg_off: true, .. }
            | PanicKind::ContextRefused { cfg_off: true, .. } => Some(
                "The source says Autodiff; the build does not. A cfg on a selector is evaluated in the crate that declares the op, with that crate's features: the fix below builds it with the feature on.",
            ),
            PanicKind::FusionShape { .. } => Some(
                "The wrong shape is not caught at the op: Fusion takes the declared metadata on trust, and the error surfaces later, where the output is first used.",
            ),
            _ => None,
        }
    }
}

/// A change a fix button makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FixAction {
    /// Add the `Autodiff` selector (and the op's `Autodiff<B, C>` impl).
    DeclareAutodiff,
    /// Build the crate with the feature that gates `Autodiff` on.
    EnableFeature,
    /// Add the `Flex` selector.
    DeclareFlex,
    /// Call the op on `x.without_autodiff()`.
    WithoutAutodiff,
    /// Use burn's builtin ops instead of the custom op.
    Builtin,
    /// Run on WebGPU, which the op declares.
    UseGpu,
    /// Create the input on an autodiff device.
    EnableGradContext,
    /// Do not call `require_grad()`.
    DisableRequireGrad,
    /// Declare the output's shape as the input's (`#[fusion(dtype = x, shape = x)]`).
    DeclareFusionShape,
}

impl FixAction {
    /// Every change a fix button can make.
    pub const ALL: [FixAction; 9] = [
        FixAction::DeclareAutodiff,
        FixAction::EnableFeature,
        FixAction::DeclareFlex,
        FixAction::WithoutAutodiff,
        FixAction::Builtin,
        FixAction::UseGpu,
        FixAction::EnableGradContext,
        FixAction::DisableRequireGrad,
        FixAction::DeclareFusionShape,
    ];

    /// Applies the fix to `form`.
    pub fn apply(self, form: &mut Form) {
        match self {
            FixAction::DeclareAutodiff => {
                form.declaration = form
                    .declaration
                    .with_autodiff(AutodiffDeclared::Listed)
                    .unwrap_or(form.declaration)
            }
            FixAction::EnableFeature => {
                form.declaration = form
                    .declaration
                    .with_autodiff(AutodiffDeclared::CfgOn)
                    .unwrap_or(form.declaration)
            }
            FixAction::DeclareFlex => {
                form.declaration = form.declaration.with_flex(true).unwrap_or(form.declaration)
            }
            FixAction::WithoutAutodiff => form.fix = Fix::WithoutAutodiff,
            FixAction::Builtin => form.fix = Fix::Builtin,
            FixAction::UseGpu => form.backend = BackendChoice::Gpu,
            FixAction::EnableGradContext => form.grad_context = true,
            FixAction::DisableRequireGrad => form.require_grad = false,
            FixAction::DeclareFusionShape => {
                form.declaration = form
                    .declaration
                    .with_fusion(FusionForm::Shape)
                    .unwrap_or(form.declaration)
            }
        }
    }
}

/// One place in the code a fix changes: the code there before and after.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CodeChange {
    /// The code before the fix.
    pub before: String,
    /// The code after the fix.
    pub after: String,
}

/// One fix, as the page offers it: one button that makes every change the scenario needs to
/// run. Where removing this panic alone would lead into another one, the fix also makes the
/// change that one needs, and its description says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixOffer {
    /// The button's label.
    pub label: String,
    /// What it changes and what it costs, one sentence per change.
    pub description: String,
    /// The code it changes, one entry per place (the declaration, the device, the call…).
    pub changes: Vec<CodeChange>,
    /// What the button does, in order.
    pub actions: Vec<FixAction>,
}

impl FixOffer {
    /// Applies every change of the fix to `form`.
    pub fn apply(&self, form: &mut Form) {
        for action in &self.actions {
            action.apply(form);
        }
    }
}

/// Where a panic was raised, as the fixes need it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixContext {
    /// The op.
    pub op: OpKind,
    /// Its declaration, as the run had it.
    pub declaration: Declaration,
    /// Where the op is called: a single run's `main`, or inside a training model.
    pub site: CallSite,
    /// The fix the call already has.
    pub fix: Fix,
    /// The statement that creates the run's input (single runs).
    pub input: String,
    /// How many dimensions the input has.
    pub input_dims: usize,
    /// Whether the input is created on an autodiff device (always, in training).
    pub grad_context: bool,
    /// The backend the run was on.
    pub backend: BackendChoice,
    /// Whether the engine has a GPU device (else a fix that moves to WebGPU would change
    /// nothing).
    pub gpu_available: bool,
}

impl FixContext {
    /// A single run of `scenario`; `gpu_available`: whether the engine has a GPU device.
    pub fn single_run(scenario: &Scenario, gpu_available: bool) -> FixContext {
        FixContext {
            op: scenario.args.kind(),
            declaration: scenario.declaration,
            site: CallSite::single_run(&scenario.args),
            fix: scenario.fix,
            input: input_code(&scenario.args),
            input_dims: scenario.args.shape().len(),
            grad_context: scenario.grad_context,
            backend: scenario.backend,
            gpu_available,
        }
    }
}

/// The scenario a fix leads to, as far as the declaration's needs go.
#[derive(Clone, Copy)]
struct Reached {
    declaration: Declaration,
    backend: BackendChoice,
    grad_context: bool,
    fix: Fix,
}

impl Reached {
    /// The declaration changes the op's call still needs once this scenario is reached: the
    /// selector for the backend the input is on, the `Autodiff` selector (or its feature) for an
    /// input on an autodiff device, and, under fusion, the kernel's shape where the flattened one
    /// differs from it. What each declaration generates, and that these changes are enough, is
    /// checked against the runs of every fixed scenario (`tests/claims/`).
    fn still_needs(self, input_dims: usize) -> Vec<FixAction> {
        let mut needs = Vec::new();
        if self.fix == Fix::Builtin {
            return needs;
        }
        if self.backend == BackendChoice::Cpu && !self.declaration.flex() {
            needs.push(FixAction::DeclareFlex);
        }
        if self.grad_context && self.fix == Fix::None && !self.declaration.autodiff().in_build() {
            needs.push(if self.declaration.autodiff() == AutodiffDeclared::CfgOff {
                FixAction::EnableFeature
            } else {
                FixAction::DeclareAutodiff
            });
        }
        if self.declaration.fusion() == FusionForm::WrongShape && input_dims > 1 {
            needs.push(FixAction::DeclareFusionShape);
        }
        needs
    }

    fn after(mut self, action: FixAction) -> Reached {
        let mut form = Form::default();
        form.declaration = self.declaration;
        form.backend = self.backend;
        form.grad_context = self.grad_context;
        form.fix = self.fix;
        action.apply(&mut form);
        self.declaration = form.declaration;
        self.backend = form.backend;
        self.grad_context = form.grad_context;
        self.fix = form.fix;
        self
    }
}

/// A declaration change, as a fix's label names it ("Declare Flex and Autodiff").
fn declared_noun(action: FixAction) -> Option<&'static str> {
    match action {
        FixAction::DeclareAutodiff => Some("Autodiff"),
        FixAction::DeclareFlex => Some("Flex"),
        FixAction::DeclareFusionShape => Some("the kernel's shape"),
        _ => None,
    }
}

/// `a`, `a and b`, `a, b and c`.
pub fn and_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// Why a fix makes a change beyond its own, as its description says it.
fn also_reason(action: FixAction) -> &'static str {
    match action {
        FixAction::DeclareFlex => {
            "The input is on the CPU backend (Flex), which the declaration does not list: this fix lists Flex too."
        }
        FixAction::DeclareAutodiff => {
            "The input is on an autodiff device and the declaration lists no Autodiff selector: this fix lists it too, with the op's Autodiff<B, C> impl."
        }
        FixAction::EnableFeature => {
            "The input is on an autodiff device and the declaration's Autodiff sits behind a feature that is off: this fix builds with the feature on too."
        }
        FixAction::DeclareFusionShape => {
            "The input has more than one dimension, so the flattened shape the declaration gives the output is not the kernel's: this fix declares the kernel's shape too."
        }
        _ => "",
    }
}

/// The fixes for `kind`, in the context `context`. Each fix removes this panic, and where the
/// scenario it leads to still lacks a selector (or the kernel's shape), it makes that change too,
/// so every fix the page offers leads to a run without a panic.
pub fn fixes(kind: &PanicKind, context: &FixContext) -> Vec<FixOffer> {
    base_fixes(kind, context)
        .into_iter()
        .map(|base| complete(base, context))
        .collect()
}

/// A fix that removes this panic, before [`complete`] adds what the scenario it leads to needs.
struct BaseFix {
    label: &'static str,
    description: &'static str,
    change: CodeChange,
    action: FixAction,
}

/// `base`, with the declaration changes the scenario it leads to still needs.
fn complete(base: BaseFix, context: &FixContext) -> FixOffer {
    let start = Reached {
        declaration: context.declaration,
        backend: context.backend,
        grad_context: context.grad_context,
        fix: context.fix,
    };
    let mut reached = start.after(base.action);
    let mut actions = vec![base.action];
    // Each added change can only add a selector or a shape: at most one round per kind.
    for _ in 0..3 {
        let needs = reached.still_needs(context.input_dims);
        let Some(&next) = needs.iter().find(|need| !actions.contains(need)) else {
            break;
        };
        reached = reached.after(next);
        actions.push(next);
    }
    if actions.len() == 1 {
        return FixOffer {
            label: base.label.to_owned(),
            description: base.description.to_owned(),
            changes: vec![base.change],
            actions,
        };
    }
    let extra = &actions[1..];
    let feature = extra.contains(&FixAction::EnableFeature);
    let mut nouns: Vec<String> = Vec::new();
    if let Some(noun) = declared_noun(base.action) {
        nouns.push(noun.to_owned());
    }
    nouns.extend(
        extra
            .iter()
            .filter_map(|&action| declared_noun(action))
            .map(str::to_owned),
    );
    let label = if declared_noun(base.action).is_some() {
        let declared = format!("Declare {}", and_list(&nouns));
        if feature {
            format!("{declared} and enable the feature")
        } else {
            declared
        }
    } else {
        let mut parts = Vec::new();
        if !nouns.is_empty() {
            parts.push(format!("declare {}", and_list(&nouns)));
        }
        if feature {
            parts.push("enable the feature".to_owned());
        }
        parts.insert(0, base.label.to_owned());
        and_list(&parts)
    };
    let mut description = base.description.to_owned();
    for &action in extra {
        description.push(' ');
        description.push_str(also_reason(action));
    }
    // The code: the declaration once, as it ends; the feature as its commands; the base's own
    // change where it is not the declaration.
    let op = context.op;
    let declaration_change = CodeChange {
        before: declaration_code(op, context.declaration),
        after: declaration_code(op, reached.declaration),
    };
    let mut changes = Vec::new();
    if declared_noun(base.action).is_none() && base.action != FixAction::EnableFeature {
        changes.push(base.change);
    }
    if !nouns.is_empty() {
        changes.push(declaration_change);
    }
    if feature || base.action == FixAction::EnableFeature {
        changes.push(feature_change());
    }
    FixOffer {
        label,
        description,
        changes,
        actions,
    }
}

fn feature_change() -> CodeChange {
    CodeChange {
        before: "$ cargo run".to_owned(),
        after: "$ cargo run --features autodiff".to_owned(),
    }
}

fn base_fixes(kind: &PanicKind, context: &FixContext) -> Vec<BaseFix> {
    let FixContext {
        op,
        declaration,
        site,
        fix: current_fix,
        input,
        backend,
        gpu_available,
        ..
    } = context;
    let (op, declaration) = (*op, *declaration);
    let call = |fix| call_code(op, fix, site);
    let declaration_change = |after: Option<Declaration>| CodeChange {
        before: declaration_code(op, declaration),
        after: declaration_code(op, after.unwrap_or(declaration)),
    };
    let declared_autodiff = |description| BaseFix {
        label: "Declare Autodiff",
        description,
        change: declaration_change(Some(
            declaration
                .with_autodiff(AutodiffDeclared::Listed)
                .unwrap_or(Declaration::WITH_AUTODIFF),
        )),
        action: FixAction::DeclareAutodiff,
    };
    let feature_on = |description| BaseFix {
        label: "Enable the feature",
        description,
        change: feature_change(),
        action: FixAction::EnableFeature,
    };
    let detach = || BaseFix {
        label: "Call it without autodiff",
        description: "Call the op on its input without autodiff: it runs on the concrete backend, but no gradient flows back through it.",
        change: CodeChange {
            before: call(*current_fix),
            after: call(Fix::WithoutAutodiff),
        },
        action: FixAction::WithoutAutodiff,
    };
    let builtin = || BaseFix {
        label: "Use a builtin op",
        description: "Compute the same thing with burn's own tensor ops, which support autodiff on every backend.",
        change: CodeChange {
            before: call(*current_fix),
            after: call(Fix::Builtin),
        },
        action: FixAction::Builtin,
    };
    let float = !op.takes_int_input();
    match kind {
        PanicKind::WrappedTensorHasNoArm { cfg_off: false, .. } => vec![
            declared_autodiff(
                "List the Autodiff selector and implement the op for Autodiff<B, C>: the routing then calls that impl.",
            ),
            detach(),
            builtin(),
        ],
        PanicKind::ContextRefused { cfg_off: false, .. } => vec![
            declared_autodiff(
                "List the Autodiff selector (its Autodiff<B, C> impl must exist too): the routing then accepts the enabled autodiff context and runs the concrete implementation inside it. Ints carry no gradient, so the impl itself is never called.",
            ),
            detach(),
            builtin(),
        ],
        PanicKind::WrappedTensorHasNoArm { cfg_off: true, .. }
        | PanicKind::ContextRefused { cfg_off: true, .. } => vec![
            feature_on(if float {
                "Build with the autodiff feature on: the cfg holds, the arms it gates are compiled in, and the routing calls the op's Autodiff<B, C> impl."
            } else {
                "Build with the autodiff feature on: the cfg holds, the arms it gates are compiled in, and the routing accepts the enabled autodiff context, running the concrete implementation inside it."
            }),
            detach(),
            builtin(),
        ],
        PanicKind::BackendHasNoArm {
            backend: missing, ..
        } => {
            let mut offers = Vec::new();
            if missing.as_str() == BackendChoice::Cpu.selector() {
                offers.push(BaseFix {
                    label: "Declare Flex",
                    description: "List the Flex selector so the routing has an arm for a Flex tensor.",
                    change: declaration_change(Some(
                        declaration
                            .with_flex(true)
                            .unwrap_or(Declaration::WITHOUT_AUTODIFF),
                    )),
                    action: FixAction::DeclareFlex,
                });
                if *gpu_available && *backend == BackendChoice::Cpu {
                    offers.push(BaseFix {
                        label: "Run on WebGPU",
                        description: "Create the input on the WebGPU backend, which the op declares (Cube).",
                        change: CodeChange {
                            before: device_code(BackendChoice::Cpu).to_owned(),
                            after: device_code(BackendChoice::Gpu).to_owned(),
                        },
                        action: FixAction::UseGpu,
                    });
                }
            }
            offers.push(builtin());
            offers
        }
        PanicKind::RequireGradOutsideAutodiff => vec![
            BaseFix {
                label: "Turn on the grad context",
                description: "Create the input on an autodiff device.",
                change: CodeChange {
                    before: device_code(*backend).to_owned(),
                    after: format!("{}\n{GRAD_CONTEXT_CODE}", device_code(*backend)),
                },
                action: FixAction::EnableGradContext,
            },
            BaseFix {
                label: "Drop require_grad",
                description: "Without a graph there is no gradient to keep.",
                change: CodeChange {
                    before: format!("{input}\n{REQUIRE_GRAD_CODE}"),
                    after: input.clone(),
                },
                action: FixAction::DisableRequireGrad,
            },
        ],
        PanicKind::FusionShape { .. } => vec![
            BaseFix {
                label: "Declare the kernel's shape",
                description: "Declare the shape the kernel returns, the input's: Fusion then records the shape the kernel writes, and what uses the output finds it.",
                change: declaration_change(declaration.with_fusion(FusionForm::Shape)),
                action: FixAction::DeclareFusionShape,
            },
            builtin(),
        ],
        PanicKind::Other => Vec::new(),
    }
}
