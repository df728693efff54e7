//! What the user asks the playground to run: the op, how the op is declared, the context it is
//! called in, the fix applied, and the typed inputs.
//!
//! A [`Scenario`] is plain data (serde) so it can cross the worker boundary and live in the URL.
//! It says nothing about what *should* happen: only burn's generated routing decides that.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

pub use super::catalog::{AutodiffDeclared, Declaration};

/// The playground's custom ops, one per routing path worth teaching.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum OpKind {
    /// `scale(x, factor)`: float op, hand-written CubeCL kernel, hand-written backward.
    Scale,
    /// `leaky_relu(x, slope)`: float op whose default trait body composes differentiable
    /// primitives, so that body also serves as the autodiff implementation.
    LeakyRelu,
    /// `shift_ids(ids, offset)`: int op; its routing tensor is an int tensor.
    ShiftIds,
}

impl OpKind {
    /// Every op, in the order the playground lists them.
    pub const ALL: [OpKind; 3] = [OpKind::Scale, OpKind::LeakyRelu, OpKind::ShiftIds];

    /// The op's Rust name, as the macro stringifies it in its panic messages.
    pub fn name(self) -> &'static str {
        match self {
            OpKind::Scale => "scale",
            OpKind::LeakyRelu => "leaky_relu",
            OpKind::ShiftIds => "shift_ids",
        }
    }

    /// The op's extension trait, as declared in `src/ops/`.
    pub fn trait_name(self) -> &'static str {
        match self {
            OpKind::Scale => "ScaleOps",
            OpKind::LeakyRelu => "LeakyReluOps",
            OpKind::ShiftIds => "ShiftIdsOps",
        }
    }

    /// Whether the op's tensor input (its routing tensor) holds integers.
    pub fn takes_int_input(self) -> bool {
        matches!(self, OpKind::ShiftIds)
    }

    /// Name of the op's scalar parameter.
    pub fn param_name(self) -> &'static str {
        match self {
            OpKind::Scale => "factor",
            OpKind::LeakyRelu => "slope",
            OpKind::ShiftIds => "offset",
        }
    }
}

/// A fix applied at the call site (the op's declaration is chosen by [`Declaration`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Fix {
    /// Call the custom op as is.
    None,
    /// Call it on `x.without_autodiff()`: the input's concrete tensor, outside the autodiff
    /// graph (burn's `detach` would keep it on the autodiff backend).
    WithoutAutodiff,
    /// Do not call the custom op: compute the same thing with burn's builtin tensor ops.
    Builtin,
}

impl Fix {
    /// Every fix, `None` first.
    pub const ALL: [Fix; 3] = [Fix::None, Fix::WithoutAutodiff, Fix::Builtin];
}

/// Where the op runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum BackendChoice {
    /// burn-wgpu: WebGPU in the browser, Vulkan/Metal/DX12 natively. Selector `Cube`.
    Gpu,
    /// burn-flex, the pure-Rust CPU backend. Selector `Flex`.
    Cpu,
}

impl BackendChoice {
    /// Both backends, GPU first.
    pub const ALL: [BackendChoice; 2] = [BackendChoice::Gpu, BackendChoice::Cpu];

    /// The backend's selector in `#[backend_extension(...)]`.
    pub fn selector(self) -> &'static str {
        match self {
            BackendChoice::Gpu => "Cube",
            BackendChoice::Cpu => "Flex",
        }
    }
}

/// A float tensor typed by the user, row-major.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FloatInput {
    /// `[len]` or `[rows, cols]`.
    pub shape: Vec<usize>,
    /// Row-major values; `values.len()` is the product of `shape`. Shared: the page keeps the
    /// last parse and the last run's scenario, and a run with unchanged text copies none of them.
    #[serde(with = "crate::model::bytes::f32s")]
    pub values: Arc<[f32]>,
}

/// An int tensor typed by the user, row-major.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IntInput {
    /// `[len]` or `[rows, cols]`.
    pub shape: Vec<usize>,
    /// Row-major values; `values.len()` is the product of `shape` (shared, as a float input's).
    #[serde(with = "crate::model::bytes::i32s")]
    pub values: Arc<[i32]>,
}

/// The op together with its typed arguments: an op can only be paired with inputs of its kind.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum OpArgs {
    /// `scale(x, factor)`.
    Scale { x: FloatInput, factor: f32 },
    /// `leaky_relu(x, slope)`.
    LeakyRelu { x: FloatInput, slope: f32 },
    /// `shift_ids(ids, offset)`.
    ShiftIds { ids: IntInput, offset: i32 },
}

impl OpArgs {
    /// Which op these arguments belong to.
    pub fn kind(&self) -> OpKind {
        match self {
            OpArgs::Scale { .. } => OpKind::Scale,
            OpArgs::LeakyRelu { .. } => OpKind::LeakyRelu,
            OpArgs::ShiftIds { .. } => OpKind::ShiftIds,
        }
    }

    /// Shape of the tensor argument.
    pub fn shape(&self) -> &[usize] {
        match self {
            OpArgs::Scale { x, .. } | OpArgs::LeakyRelu { x, .. } => &x.shape,
            OpArgs::ShiftIds { ids, .. } => &ids.shape,
        }
    }
}

/// Everything one run needs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Scenario {
    /// The op and its inputs.
    pub args: OpArgs,
    /// Which expansion of the op's trait is called.
    pub declaration: Declaration,
    /// Whether the input lives on an autodiff device (`device.autodiff()`), as in a training loop.
    pub grad_context: bool,
    /// Whether the input is marked `require_grad()`. Only float tensors can be; ignored for ints.
    pub require_grad: bool,
    /// The call-site fix.
    pub fix: Fix,
    /// The backend the input lives on.
    pub backend: BackendChoice,
    /// Whether it is for burn built with its `fusion` feature (the fusion engine): an engine
    /// built the other way does not run it.
    pub fusion: bool,
}
