//! The statements the page writes around an op: its call (as written, on the input without
//! autodiff, or replaced by burn's builtin ops), the device, the grad context, the input. Each is a
//! line of an exported project ([`crate::teach::export`]), so the fixes' before/after code, the
//! training model's call and the export say the same thing in the same words.

use crate::model::scenario::{BackendChoice, Fix, OpArgs, OpKind};
use crate::model::training::{LEAKY_SLOPE, SCALE_FACTOR, SHIFT};

/// Where an op is called: the tensor expression it gets, the name of the result, and the
/// parameter as a Rust literal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallSite {
    /// The tensor argument, e.g. `x.clone()` or `h`.
    pub input: String,
    /// The binding of the result, e.g. `y`.
    pub output: String,
    /// The parameter, e.g. `2.5` or `1000`.
    pub param: String,
}

impl CallSite {
    /// The call in a single run's exported `main`: on the input `x` (`ids` for an int op),
    /// with the parameter the run used.
    pub fn single_run(args: &OpArgs) -> CallSite {
        let (input, param) = match args {
            OpArgs::Scale { factor, .. } => ("x.clone()", float_literal(*factor)),
            OpArgs::LeakyRelu { slope, .. } => ("x.clone()", float_literal(*slope)),
            OpArgs::ShiftIds { offset, .. } => ("ids", offset.to_string()),
        };
        CallSite {
            input: input.to_owned(),
            output: "y".to_owned(),
            param,
        }
    }
}

/// `2.5`, `2.0`, `1e-7`: an `f32` as a Rust literal that reads back exactly.
pub fn float_literal(value: f32) -> String {
    format!("{value:?}")
}

/// The statement that calls `op` at `site` under `fix`: the op through its generated routing, on
/// the input without autodiff (the without-autodiff fix), or burn's builtin ops instead (the builtin fix).
/// Exactly as it stands in an exported `main`.
pub fn call_code(op: OpKind, fix: Fix, site: &CallSite) -> String {
    let CallSite {
        input,
        output,
        param,
    } = site;
    match (fix, op) {
        (Fix::None, _) => format!("let {output} = {}({input}, {param});", op.name()),
        (Fix::WithoutAutodiff, _) => format!(
            "let {output} = {}({input}.without_autodiff(), {param});",
            op.name()
        ),
        (Fix::Builtin, OpKind::Scale) => format!("let {output} = {input}.mul_scalar({param});"),
        (Fix::Builtin, OpKind::LeakyRelu) => {
            format!("let {output} = burn::tensor::activation::leaky_relu({input}, {param});")
        }
        (Fix::Builtin, OpKind::ShiftIds) => format!("let {output} = {input}.add_scalar({param});"),
    }
}

/// The statement that makes the device a scenario's input lives on.
pub fn device_code(backend: BackendChoice) -> &'static str {
    match backend {
        BackendChoice::Gpu => {
            "let device = Device::wgpu_options().init().expect(\"a GPU adapter\");"
        }
        BackendChoice::Cpu => "let device = Device::flex();",
    }
}

/// The statement that puts the device in a grad context, as a training loop does.
pub const GRAD_CONTEXT_CODE: &str = "let device = device.autodiff();";

/// The statement that marks the input for the autodiff graph.
pub const REQUIRE_GRAD_CODE: &str = "let x = x.require_grad();";

/// The statement that creates the input tensor from `values`.
pub fn input_code(args: &OpArgs) -> String {
    let shape = args.shape();
    let rank = shape.len();
    if args.kind().takes_int_input() {
        format!(
            "let ids = Tensor::<{rank}, Int>::from_data(TensorData::new(values, {shape:?}), &device);"
        )
    } else {
        format!("let x = Tensor::<{rank}>::from_data(TensorData::new(values, {shape:?}), &device);")
    }
}

/// Where the model calls its op: on `h`, the layer's output before it (on `ids` for the int
/// op), with the model's parameter.
pub fn training_call_site(op: OpKind) -> CallSite {
    let (input, param) = match op {
        OpKind::Scale => ("h", float_literal(SCALE_FACTOR)),
        OpKind::LeakyRelu => ("h", float_literal(LEAKY_SLOPE)),
        OpKind::ShiftIds => ("ids", SHIFT.to_string()),
    };
    CallSite {
        input: input.to_owned(),
        output: input.to_owned(),
        param,
    }
}
