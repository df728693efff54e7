//! `leaky_relu(x, slope) = max(x, 0) + slope · min(x, 0)`: a float op whose default trait body
//! composes burn primitives.
//!
//! Because the body only calls differentiable primitives, the same body serves every backend,
//! `Autodiff<B, C>` included: the autodiff implementation is an empty `impl` block, and the
//! gradient comes from the primitives' own backward passes.

use burn::backend::{
    Backend, Dispatch, Flex,
    autodiff::{Autodiff, checkpoint::strategy::CheckpointStrategy},
    tensor::FloatTensor,
};
use burn::tensor::{Tensor, activation};

#[cfg(feature = "fusion")]
use super::same_spec;
use super::{default_body_builds, stamp_declarations, trace};
use crate::model::catalog::{Declaration, declaration_catalog};

/// Declares the `LeakyReluOps` trait, with its default body, under the given selectors and
/// `#[fusion]` form, and implements it for the concrete backends (empty impls: the default body
/// is the forward). (One form per line: `tests/export.rs` reads each form's attribute here.)
macro_rules! declare_leaky_relu_ops {
    ([$($selector:tt)*] None) => { declare_leaky_relu_ops!(@declare [$($selector)*] [] x burn::backend::Cube); };
    ([$($selector:tt)*] Shape) => { declare_leaky_relu_ops!(@declare [$($selector)*] [#[fusion(dtype = x, shape = x)]] x burn::backend::wgpu::CubeBackend); };
    ([$($selector:tt)*] Meta) => { declare_leaky_relu_ops!(@declare [$($selector)*] [#[fusion(meta = same_spec)]] x burn::backend::wgpu::CubeBackend); };
    ([$($selector:tt)*] Default) => { declare_leaky_relu_ops!(@declare [$($selector)*] [#[fusion(default)]] x burn::backend::wgpu::CubeBackend); };
    ([$($selector:tt)*] WrongShape) => { declare_leaky_relu_ops!(@declare [$($selector)*] [#[fusion(dtype = x, shape = { burn::tensor::Shape::from([x.num_elements()]) })]] x burn::backend::wgpu::CubeBackend); };
    (@declare [$($selector:tt)*] [$($fusion:tt)*] $x:ident $cube:ty) => {
        /// The `leaky_relu` op. Its default body composes differentiable primitives, so the
        /// same body serves every backend, autodiff included.
        #[burn::backend::backend_extension($($selector)*)]
        pub trait LeakyReluOps: Backend {
            /// `x` where positive, `slope · x` elsewhere.
            $($fusion)*
            fn leaky_relu($x: FloatTensor<Self>, slope: f32) -> FloatTensor<Self> {
                trace::record::<Self>("leaky_relu");
                leaky_relu_body::<Self>($x, slope)
            }
        }

        /// The backend the concrete impls are for: burn's `Cube`, or with `Fusion` listed the
        /// CubeCL backend under fusion.
        type Cube = $cube;

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
include!("declarations.rs");

// The default body's maths: shared, as text, with the exported Cargo project.
include!("body.rs");

/// Calls the custom op through the generated `Dispatch` routing of the chosen declaration.
pub fn call<const D: usize>(
    declaration: Declaration,
    x: Tensor<D>,
    slope: f32,
) -> Result<Tensor<D>, super::NotBuilt> {
    let x = x.into_dispatch();
    trace::record_routing_tensor(&x);
    dispatch(declaration, x, slope).map(Tensor::from_dispatch)
}

/// The same computation with burn's builtin activation.
pub fn reference<const D: usize>(x: Tensor<D>, slope: f32) -> Tensor<D> {
    trace::record_builtin();
    activation::leaky_relu(x, slope as f64)
}
