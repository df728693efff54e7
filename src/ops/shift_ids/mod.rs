//! `shift_ids(ids, offset) = ids + offset`: an int op, as used to move token ids into a shared
//! vocabulary before an embedding lookup inside a training step.
//!
//! Its only tensor input is an int tensor, so that int tensor is the routing tensor. Int tensors
//! are never autodiff-wrapped, so on an autodiff device the generated code reaches the concrete
//! backend with an *enabled* autodiff context — the path where the generated concrete arm refuses
//! that context when the op is declared without `Autodiff`.

use burn::backend::{
    Backend, Dispatch, Flex,
    autodiff::{Autodiff, checkpoint::strategy::CheckpointStrategy},
    tensor::IntTensor,
};
use burn::tensor::{Int, Tensor};

#[cfg(feature = "fusion")]
use super::same_spec;
use super::{default_body_builds, stamp_declarations, trace};
use crate::model::catalog::{Declaration, declaration_catalog};

/// Declares the `ShiftIdsOps` trait, with its default body, under the given selectors and
/// `#[fusion]` form, and implements it for the concrete backends (empty impls: the default body
/// is the forward). (One form per line: `tests/export.rs` reads each form's attribute here.)
macro_rules! declare_shift_ids_ops {
    ([$($selector:tt)*] None) => { declare_shift_ids_ops!(@declare [$($selector)*] [] ids burn::backend::Cube); };
    ([$($selector:tt)*] Shape) => { declare_shift_ids_ops!(@declare [$($selector)*] [#[fusion(dtype = ids, shape = ids)]] ids burn::backend::wgpu::CubeBackend); };
    ([$($selector:tt)*] Meta) => { declare_shift_ids_ops!(@declare [$($selector)*] [#[fusion(meta = same_spec)]] ids burn::backend::wgpu::CubeBackend); };
    ([$($selector:tt)*] Default) => { declare_shift_ids_ops!(@declare [$($selector)*] [#[fusion(default)]] ids burn::backend::wgpu::CubeBackend); };
    ([$($selector:tt)*] WrongShape) => { declare_shift_ids_ops!(@declare [$($selector)*] [#[fusion(dtype = ids, shape = { burn::tensor::Shape::from([ids.num_elements()]) })]] ids burn::backend::wgpu::CubeBackend); };
    (@declare [$($selector:tt)*] [$($fusion:tt)*] $ids:ident $cube:ty) => {
        /// The `shift_ids` op: moves token ids, an int tensor, by an offset.
        #[burn::backend::backend_extension($($selector)*)]
        pub trait ShiftIdsOps: Backend {
            /// Adds `offset` to every id.
            $($fusion)*
            fn shift_ids($ids: IntTensor<Self>, offset: i32) -> IntTensor<Self> {
                trace::record::<Self>("shift_ids");
                shift_ids_body::<Self>($ids, offset)
            }
        }

        /// The backend the concrete impls are for: burn's `Cube`, or with `Fusion` listed the
        /// CubeCL backend under fusion.
        type Cube = $cube;

        // The concrete implementations: shared, as text, with the exported Cargo project.
        include!("concrete.rs");
    };
}

/// The `Autodiff<B, C>` impl (the default body). Ints carry no gradient, so the generated
/// routing never calls it, but the `Autodiff` selector makes the routing accept an autodiff
/// context.
macro_rules! impl_shift_ids_autodiff {
    () => {
        // Shared, as text, with the exported Cargo project.
        include!("autodiff.rs");
    };
}

// One module per catalog line (`cube_flex`, `cube_flex_autodiff`, …), and `dispatch`.
include!("declarations.rs");

// The default body's arithmetic: shared, as text, with the exported Cargo project.
include!("body.rs");

/// Calls the custom op through the generated `Dispatch` routing of the chosen declaration.
pub fn call<const D: usize>(
    declaration: Declaration,
    ids: Tensor<D, Int>,
    offset: i32,
) -> Result<Tensor<D, Int>, super::NotBuilt> {
    let ids = ids.into_dispatch();
    trace::record_routing_tensor(&ids);
    dispatch(declaration, ids, offset).map(Tensor::from_dispatch)
}

/// The same computation with burn's builtin tensor ops.
pub fn reference<const D: usize>(ids: Tensor<D, Int>, offset: i32) -> Tensor<D, Int> {
    trace::record_builtin();
    ids.add_scalar(offset)
}
