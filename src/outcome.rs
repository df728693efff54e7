//! What a run produced, as observed: values read back from the device, the op implementations
//! that actually executed, or the panic that burn raised. Plain data (serde) so it can cross the
//! worker boundary.

use serde::{Deserialize, Serialize};

use crate::scenario::BackendChoice;

/// The result of running one [`Scenario`](crate::scenario::Scenario).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Outcome {
    /// The call returned and its tensors were read back.
    Completed(Completed),
    /// The call panicked; the report is what the panic hook captured.
    Panicked(PanicReport),
    /// The run could not start or finish for a reason that is not a panic: the chosen backend is
    /// not available, or reading a tensor back failed.
    Failed(String),
}

/// Element values of a tensor read back from a device.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Values {
    /// Float elements.
    Float(Vec<f32>),
    /// Integer elements (widened to i64 so every int dtype fits).
    Int(Vec<i64>),
}

impl Values {
    /// Number of elements.
    pub fn len(&self) -> usize {
        match self {
            Values::Float(values) => values.len(),
            Values::Int(values) => values.len(),
        }
    }

    /// Whether there are no elements.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A tensor as read back: shape, dtype and values.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TensorView {
    /// The tensor's shape.
    pub shape: Vec<usize>,
    /// burn's dtype name, e.g. `F32`, `I32`.
    pub dtype: String,
    /// Row-major values: all of them, or the first ones when [`Self::truncate`] was applied.
    pub values: Values,
}

impl TensorView {
    /// Number of elements of the tensor (not of `values`, which may be cut short).
    pub fn elements(&self) -> usize {
        self.shape.iter().product()
    }

    /// Keeps only the first `limit` values (the page shows no more): the shape still tells the
    /// full size.
    pub fn truncate(&mut self, limit: usize) {
        match &mut self.values {
            Values::Float(values) => values.truncate(limit),
            Values::Int(values) => values.truncate(limit),
        }
    }
}

impl Completed {
    /// Cuts every tensor to its first `limit` values, for sending to the page. Differences were
    /// computed over all values before.
    pub fn truncate_values(&mut self, limit: usize) {
        self.output.truncate(limit);
        self.reference.truncate(limit);
        for view in [&mut self.gradient, &mut self.reference_gradient]
            .into_iter()
            .flatten()
        {
            view.truncate(limit);
        }
    }
}

/// Which pass an op implementation ran in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Phase {
    /// The call itself.
    Forward,
    /// `backward()`: a hand-written `Backward` may call op implementations again.
    Backward,
}

/// One execution of an op implementation, recorded by the implementation itself when it ran.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImplCall {
    /// The op's name.
    pub op: String,
    /// The pass it ran in.
    pub phase: Phase,
    /// The implementing backend type, without module paths, e.g. `CubeBackend` or
    /// `Autodiff<CubeBackend, NoCheckpointing>`.
    pub implementor: String,
}

impl ImplCall {
    /// Whether this was the op's `Autodiff<B, C>` implementation.
    pub fn is_autodiff(&self) -> bool {
        self.implementor.starts_with("Autodiff<")
    }
}

/// Which way the call went, derived from what was observed during the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Route {
    /// Only a concrete backend implementation ran, and the output has no autodiff context.
    Concrete,
    /// Only a concrete backend implementation ran, and the output carries an enabled autodiff
    /// context (the generated code re-wrapped a concrete result).
    ConcreteInAutodiffContext,
    /// The op's `Autodiff<B, C>` implementation ran.
    AutodiffImpl,
    /// The custom op was not called: burn's builtin tensor ops computed the result.
    Builtin,
}

/// A successful run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Completed {
    /// The op's output.
    pub output: TensorView,
    /// The gradient of `sum(output)` with respect to the input, when the output was tracked by
    /// autodiff and the input required a gradient.
    pub gradient: Option<TensorView>,
    /// The same computation with burn's builtin tensor ops, on the CPU backend.
    pub reference: TensorView,
    /// The builtin computation's gradient, computed whenever [`Self::gradient`] is.
    pub reference_gradient: Option<TensorView>,
    /// The largest element-wise |output − reference|.
    pub output_difference: Option<f64>,
    /// The largest element-wise |gradient − reference gradient|, when both exist.
    pub gradient_difference: Option<f64>,
    /// Whether the output tensor lives in an autodiff context.
    pub output_autodiff: bool,
    /// Whether the output is tracked by autodiff (so `backward()` reaches the input).
    pub output_tracked: bool,
    /// The route the call took.
    pub route: Route,
    /// Every op implementation that ran, in order (forward, then backward).
    pub impls: Vec<ImplCall>,
    /// Which backend ran the op.
    pub backend: BackendChoice,
    /// The device or adapter name, e.g. `llvmpipe (LLVM 15.0.6, 256 bits)` or `SwiftShader`.
    pub device: String,
    /// Wall-clock time of the run, from tensor creation to the last read, in milliseconds.
    pub elapsed_ms: f64,
}

/// Where a panic was raised.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PanicLocation {
    /// Source file, as rustc recorded it.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// A panic, as the panic hook saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PanicReport {
    /// The panic message, exactly as raised.
    pub message: String,
    /// Where it was raised, when known.
    pub location: Option<PanicLocation>,
    /// Op implementations that ran before the panic.
    pub impls: Vec<ImplCall>,
}

/// The result of running a gallery case.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum CaseOutcome {
    /// The snippet panicked, as the panic hook saw it.
    Panicked(PanicReport),
    /// The snippet ran to the end; the text says what it produced.
    Completed(String),
    /// The snippet needs a device this engine does not have.
    Unavailable(String),
}
