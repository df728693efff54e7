//! `scale(x, factor) = factor · x`: a float op with a hand-written CubeCL kernel and a
//! hand-written backward pass.
//!
//! Side by side: the op trait (stamped once per declaration), the kernel, the forward for each
//! backend, the `Autodiff<B, C>` implementation with its `Backward`, and the reference built from
//! burn's tensor ops.

use burn::backend::{
    Dispatch, TensorMetadata,
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
        pub trait ScaleOps: burn::backend::Backend {
            /// Multiplies every element of `x` by `factor`.
            fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;
        }

        impl ScaleOps for burn::backend::Cube {
            fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {
                trace::record::<Self>("scale");
                forward_cube(x, factor)
            }
        }

        impl ScaleOps for burn::backend::Flex {
            fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {
                trace::record::<Self>("scale");
                forward_flex(x, factor)
            }
        }
    };
}

/// Implements the module's `ScaleOps` for `Autodiff<B, C>`, with its `Backward`.
macro_rules! impl_scale_autodiff {
    () => {
        impl<B: ScaleOps, C: CheckpointStrategy> ScaleOps for Autodiff<B, C> {
            fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self> {
                trace::record::<Self>("scale");
                let (primitive, node) = x.into_parts();
                match ScaleBackward
                    .prepare::<C>([node])
                    .compute_bound()
                    .stateful()
                {
                    // The backward needs only the factor, not the input or output.
                    OpsKind::Tracked(prep) => prep.finish(factor, B::scale(primitive, factor)),
                    OpsKind::UnTracked(prep) => prep.finish(B::scale(primitive, factor)),
                }
            }
        }

        // The `Backward` step: shared, as text, with the exported Cargo project.
        include!("backward.rs");
    };
}

// One module per catalog line (`cube_flex`, `cube_flex_autodiff`, …), and `dispatch`.
declaration_catalog!(stamp_declarations! {
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
