//! The three models a training run trains, each with the custom op in its forward pass (or, for
//! the builtin twin, burn's builtin ops in its place), their data and their starting parameters.

use burn::module::{Module, Param};
use burn::tensor::Gradients;
use burn::tensor::{Device, Int, Tensor, TensorData};

use crate::model::scenario::{Declaration, Fix, OpKind};
use crate::model::training::{HIDDEN, LEAKY_SLOPE, SCALE_FACTOR, SHIFT};
use crate::ops::{CHECKED_BUILT, NotBuilt, leaky_relu, scale, shift_ids};

/// Training examples per step.
const EXAMPLES: usize = 32;
/// Ids fed to the `shift_ids` model (0 to this), and the embedding's rows and width.
const IDS: i64 = 8;
const EMBEDDINGS: usize = 16;
const EMBEDDING_WIDTH: usize = 4;

/// How a model calls its op: the custom op as the scenario declares and calls it, or burn's
/// builtin ops.
#[derive(Clone, Copy)]
pub(super) enum OpCall {
    Custom(Declaration, Fix),
    Builtin,
}

impl OpCall {
    fn float<const D: usize>(
        self,
        x: Tensor<D>,
        param: f32,
        custom: fn(Declaration, Tensor<D>, f32) -> Result<Tensor<D>, NotBuilt>,
        builtin: fn(Tensor<D>, f32) -> Tensor<D>,
    ) -> Tensor<D> {
        match self {
            OpCall::Custom(declaration, Fix::None) => {
                custom(declaration, x, param).expect(CHECKED_BUILT)
            }
            OpCall::Custom(declaration, Fix::WithoutAutodiff) => {
                custom(declaration, x.without_autodiff(), param).expect(CHECKED_BUILT)
            }
            OpCall::Custom(_, Fix::Builtin) | OpCall::Builtin => builtin(x, param),
        }
    }

    fn ids(self, ids: Tensor<1, Int>, offset: i32) -> Tensor<1, Int> {
        match self {
            OpCall::Custom(declaration, Fix::None) => {
                shift_ids::call(declaration, ids, offset).expect(CHECKED_BUILT)
            }
            OpCall::Custom(declaration, Fix::WithoutAutodiff) => {
                shift_ids::call(declaration, ids.without_autodiff(), offset).expect(CHECKED_BUILT)
            }
            OpCall::Custom(_, Fix::Builtin) | OpCall::Builtin => shift_ids::reference(ids, offset),
        }
    }
}

/// A deterministic sequence in [-1, 1): the models' starting parameters.
struct Sequence(u64);

impl Sequence {
    fn next(&mut self) -> f32 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        ((self.0 >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
    }

    /// `count` values scaled to ±`1/sqrt(fan_in)`, as a tensor of `shape`.
    fn tensor<const D: usize>(
        &mut self,
        shape: [usize; D],
        fan_in: usize,
        device: &Device,
    ) -> Tensor<D> {
        let bound = 1.0 / (fan_in as f32).sqrt();
        let count = shape.iter().product();
        let values: Vec<f32> = (0..count).map(|_| self.next() * bound).collect();
        Tensor::from_data(TensorData::new(values, shape.to_vec()), device)
    }

    fn dense(&mut self, inputs: usize, outputs: usize, device: &Device) -> Dense {
        Dense {
            weight: Param::from_tensor(self.tensor([inputs, outputs], inputs, device)),
            bias: Param::from_tensor(self.tensor([outputs], inputs, device)),
        }
    }
}

/// A fully connected layer, `x · weight + bias`, computed by broadcasting and summing.
///
/// Not `burn::nn::Linear`: that multiplies with `matmul`, whose kernels (cubek-matmul and
/// cubek-tile) would be 2 MB of the engine's 10 MB of code, for layers of at most 16 units that
/// a broadcast product and a sum compute just as well.
#[derive(Module, Debug)]
struct Dense {
    weight: Param<Tensor<2>>,
    bias: Param<Tensor<1>>,
}

impl Dense {
    /// `[examples, inputs]` → `[examples, outputs]`. The models' layers have one input or one
    /// output, so a broadcast product (and a sum over the inputs) is the whole product: few
    /// kernels per step, which is what a step costs on a GPU.
    fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let [examples, inputs] = x.dims();
        let outputs = self.bias.dims()[0];
        let weighted = if inputs == 1 {
            // [examples, 1] · [1, outputs].
            x * self.weight.val()
        } else if outputs == 1 {
            // [examples, inputs] · [inputs, 1]: products summed over the inputs.
            (x * self.weight.val().reshape([1, inputs])).sum_dim(1)
        } else {
            // [examples, inputs, 1] · [1, inputs, outputs], summed over the inputs.
            let products = x.reshape([examples, inputs, 1]) * self.weight.val().unsqueeze::<3>();
            products.sum_dim(1).reshape([examples, outputs])
        };
        weighted + self.bias.val().unsqueeze()
    }

    fn params(&self, prefix: &str, grads: Option<&Gradients>) -> Vec<NamedParam> {
        vec![
            NamedParam::of(&format!("{prefix}.weight"), self.weight.val(), grads),
            NamedParam::of(&format!("{prefix}.bias"), self.bias.val(), grads),
        ]
    }
}

/// A lookup table of rows, one per id (`select` on the rows; `burn::nn::Embedding` does the same
/// through its own op, for sequences).
#[derive(Module, Debug)]
struct Lookup {
    weight: Param<Tensor<2>>,
}

impl Lookup {
    /// `[examples]` ids → `[examples, width]`.
    fn forward(&self, ids: Tensor<1, Int>) -> Tensor<2> {
        self.weight.val().select(0, ids)
    }
}

/// A parameter as the report needs it: its name, whether the gradients hold one for it, and its
/// values (detached, flattened) to read back.
pub(super) struct NamedParam {
    pub(super) name: String,
    pub(super) has_gradient: bool,
    pub(super) values: Tensor<1>,
}

impl NamedParam {
    fn of<const D: usize>(name: &str, tensor: Tensor<D>, grads: Option<&Gradients>) -> NamedParam {
        let elements = tensor.shape().num_elements();
        NamedParam {
            name: name.to_owned(),
            has_gradient: grads.is_some_and(|grads| tensor.grad(grads).is_some()),
            values: tensor.without_autodiff().reshape([elements]),
        }
    }
}

/// `scale(linear(x), 2) + offset`.
#[derive(Module, Debug)]
pub(super) struct ScaleModel {
    linear: Dense,
    offset: Param<Tensor<1>>,
}

/// `output(leaky_relu(hidden(x), 0.1))`.
#[derive(Module, Debug)]
pub(super) struct MlpModel {
    hidden: Dense,
    output: Dense,
}

/// `output(embedding(shift_ids(ids, 8)))`.
#[derive(Module, Debug)]
pub(super) struct EmbeddingModel {
    embedding: Lookup,
    output: Dense,
}

/// The training data of a model, on its device.
pub(super) enum Data {
    Float {
        x: Tensor<2>,
        target: Tensor<2>,
    },
    Ids {
        ids: Tensor<1, Int>,
        target: Tensor<2>,
    },
}

/// One of the three models, all trained the same way.
pub(super) trait Model: Module + Sized {
    fn loss(&self, data: &Data, call: OpCall) -> Tensor<1>;
    /// Every parameter, in order; `grads` says which have a gradient.
    fn params(&self, grads: Option<&Gradients>) -> Vec<NamedParam>;
}

fn mse(prediction: Tensor<2>, target: &Tensor<2>) -> Tensor<1> {
    (prediction - target.clone()).square().mean()
}

impl Model for ScaleModel {
    fn loss(&self, data: &Data, call: OpCall) -> Tensor<1> {
        let Data::Float { x, target } = data else {
            unreachable!("the scale model trains on floats")
        };
        let scaled = call.float(
            self.linear.forward(x.clone()),
            SCALE_FACTOR,
            scale::call,
            scale::reference,
        );
        mse(scaled + self.offset.val().unsqueeze(), target)
    }

    fn params(&self, grads: Option<&Gradients>) -> Vec<NamedParam> {
        let mut params = self.linear.params("linear", grads);
        params.push(NamedParam::of("offset", self.offset.val(), grads));
        params
    }
}

impl Model for MlpModel {
    fn loss(&self, data: &Data, call: OpCall) -> Tensor<1> {
        let Data::Float { x, target } = data else {
            unreachable!("the MLP trains on floats")
        };
        let hidden = call.float(
            self.hidden.forward(x.clone()),
            LEAKY_SLOPE,
            leaky_relu::call,
            leaky_relu::reference,
        );
        mse(self.output.forward(hidden), target)
    }

    fn params(&self, grads: Option<&Gradients>) -> Vec<NamedParam> {
        let mut params = self.hidden.params("hidden", grads);
        params.extend(self.output.params("output", grads));
        params
    }
}

impl Model for EmbeddingModel {
    fn loss(&self, data: &Data, call: OpCall) -> Tensor<1> {
        let Data::Ids { ids, target } = data else {
            unreachable!("the embedding model trains on ids")
        };
        let shifted = call.ids(ids.clone(), SHIFT);
        mse(self.output.forward(self.embedding.forward(shifted)), target)
    }

    fn params(&self, grads: Option<&Gradients>) -> Vec<NamedParam> {
        let mut params = vec![NamedParam::of(
            "embedding.weight",
            self.embedding.weight.val(),
            grads,
        )];
        params.extend(self.output.params("output", grads));
        params
    }
}

/// `x` evenly spaced over [-2, 2], as a column.
fn inputs(device: &Device) -> (Vec<f32>, Tensor<2>) {
    let xs: Vec<f32> = (0..EXAMPLES)
        .map(|i| -2.0 + 4.0 * i as f32 / (EXAMPLES - 1) as f32)
        .collect();
    let tensor = Tensor::from_data(TensorData::new(xs.clone(), [EXAMPLES, 1]), device);
    (xs, tensor)
}

fn column(values: Vec<f32>, device: &Device) -> Tensor<2> {
    let rows = values.len();
    Tensor::from_data(TensorData::new(values, [rows, 1]), device)
}

/// The data for `op`'s model, on `device` (the autodiff device: a training batch).
pub(super) fn data(op: OpKind, device: &Device) -> Data {
    match op {
        OpKind::Scale => {
            let (xs, x) = inputs(device);
            let target = column(xs.iter().map(|x| 3.0 * x + 1.0).collect(), device);
            Data::Float { x, target }
        }
        OpKind::LeakyRelu => {
            let (xs, x) = inputs(device);
            let target = column(xs.iter().map(|x| x.abs()).collect(), device);
            Data::Float { x, target }
        }
        OpKind::ShiftIds => {
            let ids: Vec<i64> = (0..EXAMPLES as i64).map(|i| i % IDS).collect();
            let target = column(
                ids.iter().map(|&id| (id as f32 * 0.8).sin()).collect(),
                device,
            );
            let ids = Tensor::from_data(TensorData::new(ids, [EXAMPLES]), device);
            Data::Ids { ids, target }
        }
    }
}

/// Every model starts from the same fixed sequence, so every run and every backend starts from
/// the same numbers.
const SEED: u64 = 0x5eed;

impl ScaleModel {
    /// The model before step 1.
    pub(super) fn start(device: &Device) -> ScaleModel {
        let mut sequence = Sequence(SEED);
        ScaleModel {
            linear: sequence.dense(1, 1, device),
            offset: Param::from_tensor(sequence.tensor([1], 1, device)),
        }
    }
}

impl MlpModel {
    /// The model before step 1.
    pub(super) fn start(device: &Device) -> MlpModel {
        let mut sequence = Sequence(SEED);
        MlpModel {
            hidden: sequence.dense(1, HIDDEN, device),
            output: sequence.dense(HIDDEN, 1, device),
        }
    }
}

impl EmbeddingModel {
    /// The model before step 1.
    pub(super) fn start(device: &Device) -> EmbeddingModel {
        let mut sequence = Sequence(SEED);
        EmbeddingModel {
            embedding: Lookup {
                weight: Param::from_tensor(sequence.tensor(
                    [EMBEDDINGS, EMBEDDING_WIDTH],
                    1,
                    device,
                )),
            },
            output: sequence.dense(EMBEDDING_WIDTH, 1, device),
        }
    }
}
