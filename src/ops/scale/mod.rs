//! `scale(x, factor) = factor · x`: a float op with a hand-written CubeCL kernel and a
//! hand-written backward pass.
//!
//! Side by side: the op trait (stamped once per declaration), the kernel, the forward for each
//! backend, the `Autodiff<B, C>` implementation with its `Backward`, and the reference built from
//! burn's tensor ops.

use burn::backend::{
    Backend, Dispatch, Flex, TensorMetadata,
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

#[cfg(feature = "fusion")]
use super::same_spec;
use super::{stamp_declarations, trace};
use crate::model::catalog::{Declaration, declaration_catalog};

/// Declares the `ScaleOps` trait with the given `#[backend_extension]` selectors and `#[fusion]`
/// form, and implements it for the concrete backends. Each use is a separate, real expansion of
/// burn's macro. (One form per line: `tests/export.rs` reads each form's attribute from here.)
macro_rules! declare_scale_ops {
    ([$($selector:tt)*] None) => { declare_scale_ops!(@declare [$($selector)*] [] x burn::backend::Cube); };
    ([$($selector:tt)*] Shape) => { declare_scale_ops!(@declare [$($selector)*] [#[fusion(dtype = x, shape = x)]] x burn::backend::wgpu::CubeBackend); };
    ([$($selector:tt)*] Meta) => { declare_scale_ops!(@declare [$($selector)*] [#[fusion(meta = same_spec)]] x burn::backend::wgpu::CubeBackend); };
    ([$($selector:tt)*] Default) => { declare_scale_ops!(@declare [$($selector)*] [#[fusion(default)]] x burn::backend::wgpu::CubeBackend); };
    ([$($selector:tt)*] WrongShape) => { declare_scale_ops!(@declare [$($selector)*] [#[fusion(dtype = x, shape = { burn::tensor::Shape::from([x.num_elements()]) })]] x burn::backend::wgpu::CubeBackend); };
    (@declare [$($selector:tt)*] [$($fusion:tt)*] $x:ident $cube:ty) => {
        /// The `scale` op: `factor · x`, element-wise.
        #[burn::backend::backend_extension($($selector)*)]
        pub trait ScaleOps: Backend {
            /// Multiplies every element of `x` by `factor`.
            $($fusion)*
            fn scale($x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;
        }

        /// The backend the concrete impl is for: burn's `Cube`, or with `Fusion` listed the
        /// CubeCL backend under fusion.
        type Cube = $cube;

        // The concrete implementations: shared, as text, with the exported Cargo project.
        include!("concrete.rs");
    };
}

/// The catalog lines `scale` builds under, as cfg predicates (see `ops::stamp_declarations`).
/// Its concrete impl works on CubeCL's own tensors, so without `Fusion` it builds only when
/// burn's fusion is off (with it on, `Cube` is `Fusion<CubeBackend>`); with `Fusion` only when
/// fusion is on; with `#[fusion(default)]` never: the method has no default body, and burn's
/// macro rejects the attribute (the arm above is there for the exported project, whose build
/// `tests/diagnostics.rs` runs to capture what the macro says).
macro_rules! scale_builds {
    ($autodiff:ident Default, $($line:tt)*) => { $crate::ops::stamp_line! { [any()] $($line)* } };
    ($autodiff:ident None, $($line:tt)*) => { $crate::ops::stamp_line! { [not(feature = "fusion")] $($line)* } };
    ($autodiff:ident $form:ident, $($line:tt)*) => { $crate::ops::stamp_line! { [feature = "fusion"] $($line)* } };
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
include!("declarations.rs");

// The kernel and the forward passes: shared, as text, with the exported Cargo project.
include!("kernel.rs");

/// Calls the custom op through the generated `Dispatch` routing of the chosen declaration.
pub fn call<const D: usize>(
    declaration: Declaration,
    x: Tensor<D>,
    factor: f32,
) -> Result<Tensor<D>, super::NotBuilt> {
    let x = x.into_dispatch();
    trace::record_routing_tensor(&x);
    dispatch(declaration, x, factor).map(Tensor::from_dispatch)
}

/// The same computation with burn's builtin tensor ops.
pub fn reference<const D: usize>(x: Tensor<D>, factor: f32) -> Tensor<D> {
    trace::record_builtin();
    x.mul_scalar(factor)
}
