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
use crate::model::scenario::{AutodiffDeclared, BackendChoice, Declaration, Fix, OpKind};
use crate::teach::code::op_sources::declaration_code;
use crate::teach::code::snippets::{
    CallSite, GRAD_CONTEXT_CODE, REQUIRE_GRAD_CODE, call_code, device_code,
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
    Detach,
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
            FixAction::Detach => form.fix = Fix::Detach,
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

/// One fix, as the page offers it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixOffer {
    /// The button's label.
    pub label: &'static str,
    /// What it changes and what it costs.
    pub description: &'static str,
    /// The code before the fix.
    pub before: String,
    /// The code after the fix.
    pub after: String,
    /// What the button does.
    pub action: FixAction,
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
    /// The backend the run was on.
    pub backend: BackendChoice,
    /// Whether the engine has a GPU device (else a fix that moves to WebGPU would change
    /// nothing).
    pub gpu_available: bool,
}

/// The fixes for `kind`, in the context `context`. Only fixes that remove this panic are offered:
/// a call-site fix never helps a backend the declaration does not list.
pub fn fixes(kind: &PanicKind, context: &FixContext) -> Vec<FixOffer> {
    let FixContext {
        op,
        declaration,
        site,
        fix: current_fix,
        input,
        backend,
        gpu_available,
    } = context;
    let (op, declaration) = (*op, *declaration);
    let call = |fix| call_code(op, fix, site);
    let declared_autodiff = |description| FixOffer {
        label: "Declare Autodiff",
        description,
        before: declaration_code(op, declaration),
        after: declaration_code(
            op,
            declaration
                .with_autodiff(AutodiffDeclared::Listed)
                .unwrap_or(Declaration::WITH_AUTODIFF),
        ),
        action: FixAction::DeclareAutodiff,
    };
    let feature_on = |description| FixOffer {
        label: "Enable the feature",
        description,
        before: "$ cargo run".to_owned(),
        after: "$ cargo run --features autodiff".to_owned(),
        action: FixAction::EnableFeature,
    };
    let detach = || FixOffer {
        label: "Run under no-grad",
        description: "Call the op on its input without autodiff: it runs on the concrete backend, but no gradient flows back through it.",
        before: call(*current_fix),
        after: call(Fix::Detach),
        action: FixAction::Detach,
    };
    let builtin = || FixOffer {
        label: "Use a builtin op",
        description: "Compute the same thing with burn's own tensor ops, which support autodiff on every backend.",
        before: call(*current_fix),
        after: call(Fix::Builtin),
        action: FixAction::Builtin,
    };
    let float = !op.takes_int_input();
    match kind {
        PanicKind::WrappedTensorHasNoArm { cfg_off: false, .. } => vec![
            declared_autodiff(
                "List the Autodiff selector and implement the op for Autodiff<B, C>: the routing then calls that impl, which records the op for backward().",
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
                "Build with the autodiff feature on: the cfg holds, the arms it gates are compiled in, and the routing calls the op's Autodiff<B, C> impl, which records the op for backward()."
            } else {
                "Build with the autodiff feature on: the cfg holds, the arms it gates are compiled in, and the routing accepts the enabled autodiff context, running the concrete implementation inside it."
            }),
            detach(),
            builtin(),
        ],
        PanicKind::BackendHasNoArm {
            backend: missing,
            wrapped,
        } => {
            let mut offers = Vec::new();
            if missing.as_str() == BackendChoice::Cpu.selector() {
                offers.push(FixOffer {
                    label: "Declare Flex",
                    description: if *wrapped && !declaration.autodiff().in_build() {
                        "List the Flex selector so the routing has an arm for a Flex tensor. The input is on an autodiff device too, so the op then also needs Autodiff for it."
                    } else {
                        "List the Flex selector so the routing has an arm for a Flex tensor."
                    },
                    before: declaration_code(op, declaration),
                    after: declaration_code(
                        op,
                        declaration
                            .with_flex(true)
                            .unwrap_or(Declaration::WITHOUT_AUTODIFF),
                    ),
                    action: FixAction::DeclareFlex,
                });
                if *gpu_available && *backend == BackendChoice::Cpu {
                    offers.push(FixOffer {
                        label: "Run on WebGPU",
                        description: "Create the input on the WebGPU backend, which the op declares (Cube).",
                        before: device_code(BackendChoice::Cpu).to_owned(),
                        after: device_code(BackendChoice::Gpu).to_owned(),
                        action: FixAction::UseGpu,
                    });
                }
            }
            offers.push(builtin());
            offers
        }
        PanicKind::RequireGradOutsideAutodiff => vec![
            FixOffer {
                label: "Turn on the grad context",
                description: "Create the input on an autodiff device, as a training loop does.",
                before: device_code(*backend).to_owned(),
                after: format!("{}\n{GRAD_CONTEXT_CODE}", device_code(*backend)),
                action: FixAction::EnableGradContext,
            },
            FixOffer {
                label: "Drop require_grad",
                description: "Without a graph there is no gradient to keep.",
                before: format!("{input}\n{REQUIRE_GRAD_CODE}"),
                after: input.clone(),
                action: FixAction::DisableRequireGrad,
            },
        ],
        PanicKind::FusionShape { .. } => vec![
            FixOffer {
                label: "Declare the kernel's shape",
                description: "Declare the shape the kernel returns, the input's: Fusion then records the shape the kernel writes, and what uses the output finds it.",
                before: declaration_code(op, declaration),
                after: declaration_code(
                    op,
                    declaration
                        .with_fusion(FusionForm::Shape)
                        .unwrap_or(declaration),
                ),
                action: FixAction::DeclareFusionShape,
            },
            builtin(),
        ],
        PanicKind::Other => Vec::new(),
    }
}
