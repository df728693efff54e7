//! `leaky_relu(x, slope) = max(x, 0) + slope · min(x, 0)`: a float op whose default trait body
//! composes burn primitives.
//!
//! Because the body only calls differentiable primitives, the same body serves every backend,
//! `Autodiff<B, C>` included: the autodiff implementation is an empty `impl` block, and the
//! gradient comes from the primitives' own backward passes.

use burn::backend::{
    Backend, Dispatch,
    autodiff::{Autodiff, checkpoint::strategy::CheckpointStrategy},
    tensor::FloatTensor,
};
use burn::tensor::{Tensor, activation};

use super::trace;
use crate::scenario::Declaration;

/// Declares the `LeakyReluOps` trait, with its default body, under the given selectors, and
/// implements it for the concrete backends (empty impls: the default body is the forward).
macro_rules! declare_leaky_relu_ops {
    ($($selector:ident),*) => {
        /// The `leaky_relu` op.
        #[burn::backend::backend_extension($($selector),*)]
        pub trait LeakyReluOps: burn::backend::Backend {
            /// `x` where positive, `slope · x` elsewhere.
            fn leaky_relu(x: FloatTensor<Self>, slope: f32) -> FloatTensor<Self> {
                trace::record::<Self>("leaky_relu");
                let positive = Self::float_clamp_min(x.clone(), 0.0f32.into());
                let negative = Self::float_clamp_max(x, 0.0f32.into());
                Self::float_add(positive, Self::float_mul_scalar(negative, slope.into()))
            }
        }

        impl LeakyReluOps for burn::backend::Cube {}
        impl LeakyReluOps for burn::backend::Flex {}
    };
}

/// `#[backend_extension(Cube, Flex)]`: no `Autodiff` selector.
pub mod cube_flex {
    use super::*;
    declare_leaky_relu_ops!(Cube, Flex);
}

/// `#[backend_extension(Cube, Flex, Autodiff)]`; the default body is the autodiff impl.
pub mod cube_flex_autodiff {
    use super::*;
    declare_leaky_relu_ops!(Cube, Flex, Autodiff);
    impl<B: Backend, C: CheckpointStrategy> LeakyReluOps for Autodiff<B, C> {}
}

/// `#[backend_extension(Cube)]`: the `Flex` impl exists, but the routing never reaches it.
pub mod cube {
    use super::*;
    declare_leaky_relu_ops!(Cube);
}

/// `#[backend_extension(Cube, Autodiff)]`.
pub mod cube_autodiff {
    use super::*;
    declare_leaky_relu_ops!(Cube, Autodiff);
    impl<B: Backend, C: CheckpointStrategy> LeakyReluOps for Autodiff<B, C> {}
}

/// Calls the custom op through the generated `Dispatch` routing of the chosen declaration.
pub fn call<const D: usize>(declaration: Declaration, x: Tensor<D>, slope: f32) -> Tensor<D> {
    let x = x.into_dispatch();
    Tensor::from_dispatch(match (declaration.flex, declaration.autodiff) {
        (true, false) => <Dispatch as cube_flex::LeakyReluOps>::leaky_relu(x, slope),
        (true, true) => <Dispatch as cube_flex_autodiff::LeakyReluOps>::leaky_relu(x, slope),
        (false, false) => <Dispatch as cube::LeakyReluOps>::leaky_relu(x, slope),
        (false, true) => <Dispatch as cube_autodiff::LeakyReluOps>::leaky_relu(x, slope),
    })
}

/// The same computation with burn's builtin activation.
pub fn reference<const D: usize>(x: Tensor<D>, slope: f32) -> Tensor<D> {
    activation::leaky_relu(x, slope as f64)
}
