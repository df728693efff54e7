//! `leaky_relu(x, slope) = max(x, 0) + slope · min(x, 0)`: a float op whose default trait body
//! composes burn primitives.
//!
//! Because the body only calls differentiable primitives, the same body serves every backend,
//! `Autodiff<B, C>` included: the autodiff implementation is an empty `impl` block, and the
//! gradient comes from the primitives' own backward passes.

use burn::backend::{
    Backend, Cube, Dispatch, Flex,
    autodiff::{Autodiff, checkpoint::strategy::CheckpointStrategy},
    tensor::FloatTensor,
};
use burn::tensor::{Tensor, activation};

use super::{stamp_declarations, trace};
use crate::model::catalog::{Declaration, declaration_catalog};

/// Declares the `LeakyReluOps` trait, with its default body, under the given selectors, and
/// implements it for the concrete backends (empty impls: the default body is the forward).
macro_rules! declare_leaky_relu_ops {
    ($($selector:tt)*) => {
        /// The `leaky_relu` op. Its default body composes differentiable primitives, so the
        /// same body serves every backend, autodiff included.
        #[burn::backend::backend_extension($($selector)*)]
        pub trait LeakyReluOps: Backend {
            /// `x` where positive, `slope · x` elsewhere.
            fn leaky_relu(x: FloatTensor<Self>, slope: f32) -> FloatTensor<Self> {
                trace::record::<Self>("leaky_relu");
                leaky_relu_body::<Self>(x, slope)
            }
        }

        // The concrete implementations: shared, as text, with the exported Cargo project.
        include!("concrete.rs");
    };
}

/// The `Autodiff<B, C>` impl: empty, because the default body composes differentiable
/// primitives and so serves autodiff too.
macro_rules! impl_leaky_relu_autodiff {
    () => {
        // Shared, as text, with the exported Cargo project.
        include!("autodiff.rs");
    };
}

// One module per catalog line (`cube_flex`, `cube_flex_autodiff`, …), and `dispatch`.
declaration_catalog!(stamp_declarations! {
    op: leaky_relu,
    declare: declare_leaky_relu_ops,
    autodiff_impl: impl_leaky_relu_autodiff,
    trait: LeakyReluOps,
    fn leaky_relu(x: FloatTensor<Dispatch>, slope: f32) -> FloatTensor<Dispatch>
});

// The default body's maths: shared, as text, with the exported Cargo project.
include!("body.rs");

/// Calls the custom op through the generated `Dispatch` routing of the chosen declaration.
pub fn call<const D: usize>(declaration: Declaration, x: Tensor<D>, slope: f32) -> Tensor<D> {
    let x = x.into_dispatch();
    trace::record_routing_tensor(&x);
    Tensor::from_dispatch(dispatch(declaration, x, slope))
}

/// The same computation with burn's builtin activation.
pub fn reference<const D: usize>(x: Tensor<D>, slope: f32) -> Tensor<D> {
    trace::record_builtin();
    activation::leaky_relu(x, slope as f64)
}
