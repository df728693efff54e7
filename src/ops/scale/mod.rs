//! `scale(x, factor) = factor · x`: a float op with a hand-written CubeCL kernel and a
//! hand-written backward pass.
//!
//! Side by side: the op trait (stamped once per declaration), the kernel, the forward for each
//! backend, the `Autodiff<B, C>` implementation with its `Backward`, and the reference built from
//! burn's tensor ops.

use burn::backend::{
    Backend, Cube, Dispatch, Flex, TensorMetadata,
    autodiff::{
        Autodiff,
        checkpoint::{base::Checkpointer, strategy::CheckpointStrategy},
        grads::Gradients,
        ops::{Backward, Ops, OpsKind},
    },
    cubecl::dtype_to_storage_type,
    ops::FloatTensorOps,
    tensor::FloatTensor,
};
use burn::tensor::Tensor;
use burn_cubecl::{kernel::into_contiguous, tensor::CubeTensor};
use cubecl::{CubeCount, CubeDim, prelude::InputScalar};

use super::{stamp_declarations, trace};
use crate::model::catalog::{Declaration, declaration_catalog};

/// Declares the `ScaleOps` trait with the given `#[backend_extension]` selectors, and implements
/// it for the concrete backends. Each use is a separate, real expansion of burn's macro.
macro_rules! declare_scale_ops {
    ($($selector:tt)*) => {
        /// The `scale` op: `factor · x`, element-wise.
        #[burn::backend::backend_extension($($selector)*)]
        pub trait ScaleOps: Backend {
            /// Multiplies every element of `x` by `factor`.
            fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;
        }

        // The concrete implementations: shared, as text, with the exported Cargo project.
        include!("concrete.rs");
    };
}

/// Implements the module's `ScaleOps` for `Autodiff<B, C>`, with its `Backward`.
macro_rules! impl_scale_autodiff {
    () => {
        // The implementation and its `Backward` step: shared, as text, with the exported
        // Cargo project.
        include!("autodiff.rs");
        include!("backward.rs");
    };
}

// One module per catalog line (`cube_flex`, `cube_flex_autodiff`, …), and `dispatch`.
declaration_catalog!(stamp_declarations! {
    op: scale,
    declare: declare_scale_ops,
    autodiff_impl: impl_scale_autodiff,
    trait: ScaleOps,
    fn scale(x: FloatTensor<Dispatch>, factor: f32) -> FloatTensor<Dispatch>
});

// The kernel and the forward passes: shared, as text, with the exported Cargo project.
include!("kernel.rs");

/// Calls the custom op through the generated `Dispatch` routing of the chosen declaration.
pub fn call<const D: usize>(declaration: Declaration, x: Tensor<D>, factor: f32) -> Tensor<D> {
    let x = x.into_dispatch();
    trace::record_routing_tensor(&x);
    Tensor::from_dispatch(dispatch(declaration, x, factor))
}

/// The same computation with burn's builtin tensor ops.
pub fn reference<const D: usize>(x: Tensor<D>, factor: f32) -> Tensor<D> {
    trace::record_builtin();
    x.mul_scalar(factor)
}
