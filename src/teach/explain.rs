//! What a panic means, and the fixes for it: each fix a change to the scenario (applied by a
//! button) and a before/after snippet of the op's declaration or its call.
//!
//! The kind of panic is read from what the run recorded — the captured message, the routing
//! tensor as it entered the generated routing — and from the declaration whose generated code
//! ran; never from the toggles of the scenario that was asked for. Only which fixes apply to it
//! is decided here.

use crate::model::outcome::PanicReport;
use crate::model::scenario::{AutodiffDeclared, BackendChoice, Declaration, Fix, OpKind};
use crate::teach::form::Form;
use crate::teach::route_view::Observed;

/// The panics the playground explains.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PanicKind {
    /// The routing's fallback arm: the routing tensor was autodiff-wrapped and no arm takes a
    /// wrapped tensor. `cfg_off`: the declaration lists `Autodiff` behind a cfg that is off.
    WrappedTensorHasNoArm { backend: String, cfg_off: bool },
    /// The routing's fallback arm: a plain tensor on a backend the declaration has no arm for.
    BackendHasNoArm { backend: String },
    /// A concrete arm refusing the enabled autodiff context of an unwrapped (int) routing
    /// tensor. `cfg_off` as above.
    ContextRefused { backend: String, cfg_off: bool },
    /// `Tensor::require_grad requires autodiff`: `require_grad()` outside an autodiff device.
    RequireGradOutsideAutodiff,
    /// Anything else.
    Other,
}

impl PanicKind {
    /// Reads a panic `report` raised while the generated code of `declaration` ran.
    pub fn of(report: &PanicReport, declaration: Declaration) -> PanicKind {
        let cfg_off = declaration.autodiff() == AutodiffDeclared::CfgOff;
        let routing = Observed::from_panic(&report.message);
        match (routing, &report.routing_tensor) {
            (Some(Observed::BackendNotSupported), Some(tensor)) if tensor.autodiff_wrapped => {
                PanicKind::WrappedTensorHasNoArm {
                    backend: tensor.backend.clone(),
                    cfg_off,
                }
            }
            (Some(Observed::BackendNotSupported), Some(tensor)) => PanicKind::BackendHasNoArm {
                backend: tensor.backend.clone(),
            },
            (Some(Observed::AutodiffNotSupported), Some(tensor)) => PanicKind::ContextRefused {
                backend: tensor.backend.clone(),
                cfg_off,
            },
            _ if report.message.contains("require_grad requires autodiff") => {
                PanicKind::RequireGradOutsideAutodiff
            }
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
            PanicKind::BackendHasNoArm { backend } => format!(
                "The input lives on the {backend} backend, and the op's declaration does not list {backend}. The match that picks the backend has no {backend} arm, so the fallback arm panics — even though a {backend} implementation of the op exists."
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
                "require_grad() marks a tensor for the autodiff graph, and there is no graph outside an autodiff device. burn refuses before the custom op is even called.".to_owned()
            }
            PanicKind::Other => "burn raised this panic while running the scenario.".to_owned(),
        }
    }

    /// Where burn 0.22.1 differs from the usual story, when it does.
    pub fn surprise(&self) -> Option<&'static str> {
        match self {
            PanicKind::WrappedTensorHasNoArm { cfg_off: false, .. } => Some(
                "Most write-ups of this mistake quote the “Autodiff not supported…” message. In burn 0.22.1 a float op never gets that far: its wrapped input fails the backend match first, as the highlighted fallback arm shows. The arm with the “Autodiff not supported…” check is only reached by ops whose routing tensor is not wrapped — int tensors.",
            ),
            PanicKind::WrappedTensorHasNoArm { cfg_off: true, .. }
            | PanicKind::ContextRefused { cfg_off: true, .. } => Some(
                "The source says Autodiff; the build does not. A cfg on a selector is evaluated in the crate that declares the op, with that crate's features: enable the feature there (cargo build --features autodiff) and these arms come back.",
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
            FixAction::DeclareFlex => {
                form.declaration = form.declaration.with_flex(true).unwrap_or(form.declaration)
            }
            FixAction::Detach => form.fix = Fix::Detach,
            FixAction::Builtin => form.fix = Fix::Builtin,
            FixAction::UseGpu => form.backend = BackendChoice::Gpu,
            FixAction::EnableGradContext => form.grad_context = true,
            FixAction::DisableRequireGrad => form.require_grad = false,
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

/// The fixes for `kind`, raised by `op` declared as `declaration`; `param` is the parameter as
/// the person typed it (for the call snippets).
pub fn fixes(kind: &PanicKind, op: OpKind, declaration: Declaration, param: &str) -> Vec<FixOffer> {
    let call = |fix| call_snippet(op, fix, param);
    // Built only for the kinds that offer them.
    let declare_autodiff = || FixOffer {
        label: "Declare Autodiff",
        description: "List the Autodiff selector and implement the op for Autodiff<B, C>: the routing then calls that impl, and gradients flow.",
        before: declaration_snippet(op, declaration),
        after: declaration_snippet(
            op,
            declaration
                .with_autodiff(AutodiffDeclared::Listed)
                .unwrap_or(Declaration::WITH_AUTODIFF),
        ),
        action: FixAction::DeclareAutodiff,
    };
    let detach = || FixOffer {
        label: "Run under no-grad",
        description: "Call the op on x.without_autodiff(): it runs on the concrete backend, but no gradient reaches x.",
        before: call(Fix::None),
        after: call(Fix::Detach),
        action: FixAction::Detach,
    };
    let builtin = || FixOffer {
        label: "Use a builtin op",
        description: "Compute the same thing with burn's own tensor ops, which support autodiff on every backend.",
        before: call(Fix::None),
        after: call(Fix::Builtin),
        action: FixAction::Builtin,
    };
    match kind {
        PanicKind::WrappedTensorHasNoArm { cfg_off: false, .. }
        | PanicKind::ContextRefused { cfg_off: false, .. } => {
            vec![declare_autodiff(), detach(), builtin()]
        }
        PanicKind::WrappedTensorHasNoArm { cfg_off: true, .. }
        | PanicKind::ContextRefused { cfg_off: true, .. } => vec![
            FixOffer {
                label: "Enable the feature",
                description: "Build with the autodiff feature on: the cfg holds, the arms it gates are compiled in, and the routing calls the op's Autodiff<B, C> impl — the same code as listing Autodiff without a cfg.",
                before: "[features]\nautodiff = []\n\n$ cargo run".to_owned(),
                after: "[features]\nautodiff = []\n\n$ cargo run --features autodiff".to_owned(),
                action: FixAction::DeclareAutodiff,
            },
            detach(),
            builtin(),
        ],
        PanicKind::BackendHasNoArm { backend }
            if backend.as_str() == BackendChoice::Cpu.selector() =>
        {
            vec![
                FixOffer {
                    label: "Declare Flex",
                    description: "List the Flex selector so the routing has an arm for the CPU backend.",
                    before: declaration_snippet(op, declaration),
                    after: declaration_snippet(
                        op,
                        declaration
                            .with_flex(true)
                            .unwrap_or(Declaration::WITHOUT_AUTODIFF),
                    ),
                    action: FixAction::DeclareFlex,
                },
                FixOffer {
                    label: "Run on WebGPU",
                    description: "Create the input on the backend the op declares.",
                    before: "let device = Device::flex();".to_owned(),
                    after: "let device = Device::wgpu_options().init_async().await?;".to_owned(),
                    action: FixAction::UseGpu,
                },
                builtin(),
            ]
        }
        PanicKind::BackendHasNoArm { .. } => vec![builtin()],
        PanicKind::RequireGradOutsideAutodiff => vec![
            FixOffer {
                label: "Turn on the grad context",
                description: "Create the input on an autodiff device, as a training loop does.",
                before: "let x = Tensor::from_data(data, &device).require_grad();".to_owned(),
                after: "let x = Tensor::from_data(data, &device.autodiff()).require_grad();"
                    .to_owned(),
                action: FixAction::EnableGradContext,
            },
            FixOffer {
                label: "Drop require_grad",
                description: "Without a graph there is no gradient to keep.",
                before: "let x = Tensor::from_data(data, &device).require_grad();".to_owned(),
                after: "let x = Tensor::from_data(data, &device);".to_owned(),
                action: FixAction::DisableRequireGrad,
            },
        ],
        PanicKind::Other => Vec::new(),
    }
}

/// The op's trait declaration, with its `Autodiff<B, C>` impl when it has one.
pub fn declaration_snippet(op: OpKind, declaration: Declaration) -> String {
    let (signature, autodiff_impl) = match op {
        OpKind::Scale => (
            "fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;",
            "impl<B: ScaleOps, C: CheckpointStrategy> ScaleOps for Autodiff<B, C> {\n    fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {\n        // prepare a ScaleBackward step, call B::scale on the inner tensor\n    }\n}",
        ),
        OpKind::LeakyRelu => (
            "fn leaky_relu(x: FloatTensor<Self>, slope: f32) -> FloatTensor<Self> {\n        // clamp_min, clamp_max, mul_scalar, add: differentiable primitives\n    }",
            "// The default body composes differentiable primitives: it is the autodiff impl.\nimpl<B: Backend, C: CheckpointStrategy> LeakyReluOps for Autodiff<B, C> {}",
        ),
        OpKind::ShiftIds => (
            "fn shift_ids(ids: IntTensor<Self>, offset: i32) -> IntTensor<Self> {\n        // int_add_scalar\n    }",
            "// Ints carry no gradient; the impl only has to exist.\nimpl<B: Backend, C: CheckpointStrategy> ShiftIdsOps for Autodiff<B, C> {}",
        ),
    };
    let mut snippet = format!(
        "#[backend_extension({})]\npub trait {}: Backend {{\n    {signature}\n}}",
        declaration.selectors(),
        op.trait_name()
    );
    match declaration.autodiff() {
        AutodiffDeclared::Absent => {}
        AutodiffDeclared::Listed => {
            snippet.push_str("\n\n");
            snippet.push_str(autodiff_impl);
        }
        AutodiffDeclared::CfgOff => {
            snippet.push_str("\n\n#[cfg(feature = \"autodiff\")]\n");
            snippet.push_str(autodiff_impl);
        }
    }
    snippet
}

/// The call site under `fix`, with the parameter as typed.
pub fn call_snippet(op: OpKind, fix: Fix, param: &str) -> String {
    let param = param.trim();
    let input = match (op, fix) {
        (OpKind::ShiftIds, Fix::Detach) => "ids.without_autodiff()",
        (OpKind::ShiftIds, _) => "ids",
        (_, Fix::Detach) => "x.without_autodiff()",
        _ => "x",
    };
    match (op, fix) {
        (OpKind::Scale, Fix::Builtin) => format!("let y = x.mul_scalar({param});"),
        (OpKind::LeakyRelu, Fix::Builtin) => format!("let y = activation::leaky_relu(x, {param});"),
        (OpKind::ShiftIds, Fix::Builtin) => format!("let y = ids.add_scalar({param});"),
        _ => format!("let y = {}({input}, {param});", op.name()),
    }
}
