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

        /// d(factor · x)/dx = factor: the incoming gradient is scaled by the same kernel.
        #[derive(Debug)]
        struct ScaleBackward;

        impl<B: ScaleOps> Backward<B, 1> for ScaleBackward {
            type State = f32;

            fn backward(
                self,
                ops: Ops<Self::State, 1>,
                grads: &mut Gradients,
                _checkpointer: &mut Checkpointer,
            ) {
                let [parent] = ops.parents;
                let grad = grads.consume::<B>(&ops.node);
                if let Some(parent) = parent {
                    grads.register::<B>(parent.id, B::scale(grad, ops.state));
                }
            }
        }
    };
}

// One module per catalog line (`cube_flex`, `cube_flex_autodiff`, …), and `dispatch`.
declaration_catalog!(stamp_declarations! {
    declare: declare_scale_ops,
    autodiff_impl: impl_scale_autodiff,
    trait: ScaleOps,
    fn scale(x: FloatTensor<Dispatch>, factor: f32) -> FloatTensor<Dispatch>
});

/// The CubeCL kernel, in its own module: CubeCL's `Tensor` is not burn's.
mod kernel {
    use cubecl::prelude::*;

    /// One invocation per output element: `output[i] = input[i] · factor`.
    #[cube(launch)]
    pub fn scale_kernel<F: Float>(
        input: &Tensor<F>,
        output: &mut Tensor<F>,
        factor: InputScalar,
        #[define(F)] _dtype: ElemType,
    ) {
        if ABSOLUTE_POS >= output.len() {
            terminate!();
        }
        output[ABSOLUTE_POS] = input[ABSOLUTE_POS] * factor.get::<F>();
    }
}

/// Elements handled by one cube (workgroup).
const CUBE_SIZE: u32 = 256;

/// Forward on the CubeCL backend (WebGPU in the browser): launches [`kernel::scale_kernel`].
fn forward_cube(x: CubeTensor, factor: f32) -> CubeTensor {
    let x = into_contiguous(x);
    let dtype = x.dtype;
    let elements = x.meta.num_elements();
    let buffer = x.client.empty(elements * dtype.size());
    let output =
        CubeTensor::new_contiguous(x.client.clone(), x.device.clone(), x.shape(), buffer, dtype);
    // At most 2^20 elements reach here (the input limit), so 4,096 cubes: far below the
    // 65,535-per-dimension dispatch limit.
    let cubes = (elements as u32).div_ceil(CUBE_SIZE);
    let client = x.client.clone();
    kernel::scale_kernel::launch(
        &client,
        CubeCount::Static(cubes, 1, 1),
        CubeDim::new_1d(CUBE_SIZE),
        x.into_tensor_arg(),
        output.clone().into_tensor_arg(),
        InputScalar::new(factor, dtype_to_storage_type(dtype)),
        dtype_to_storage_type(dtype),
    );
    output
}

/// Forward on the Flex CPU backend: Flex's own scalar multiply.
fn forward_flex(
    x: FloatTensor<burn::backend::Flex>,
    factor: f32,
) -> FloatTensor<burn::backend::Flex> {
    burn::backend::Flex::float_mul_scalar(x, factor.into())
}

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
