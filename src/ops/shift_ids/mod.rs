//! `shift_ids(ids, offset) = ids + offset`: an int op, as used to move token ids into a shared
//! vocabulary before an embedding lookup inside a training step.
//!
//! Its only tensor input is an int tensor, so that int tensor is the routing tensor. Int tensors
//! are never autodiff-wrapped, so on an autodiff device the generated code reaches the concrete
//! backend with an *enabled* autodiff context — the path where the generated concrete arm refuses
//! that context when the op is declared without `Autodiff`.

use burn::backend::{
    Backend, Cube, Dispatch, Flex,
    autodiff::{Autodiff, checkpoint::strategy::CheckpointStrategy},
    tensor::IntTensor,
};
use burn::tensor::{Int, Tensor};

use super::{stamp_declarations, trace};
use crate::model::catalog::{Declaration, declaration_catalog};

/// Declares the `ShiftIdsOps` trait under the given selectors and implements it for the concrete
/// backends (empty impls: the default body is the forward).
macro_rules! declare_shift_ids_ops {
    ($($selector:tt)*) => {
        /// The `shift_ids` op: moves token ids, an int tensor, by an offset.
        #[burn::backend::backend_extension($($selector)*)]
        pub trait ShiftIdsOps: Backend {
            /// Adds `offset` to every id.
            fn shift_ids(ids: IntTensor<Self>, offset: i32) -> IntTensor<Self> {
                trace::record::<Self>("shift_ids");
                shift_ids_body::<Self>(ids, offset)
            }
        }

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
declaration_catalog!(stamp_declarations! {
    op: shift_ids,
    declare: declare_shift_ids_ops,
    autodiff_impl: impl_shift_ids_autodiff,
    trait: ShiftIdsOps,
    fn shift_ids(ids: IntTensor<Dispatch>, offset: i32) -> IntTensor<Dispatch>
});

// The default body's arithmetic: shared, as text, with the exported Cargo project.
include!("body.rs");

/// Calls the custom op through the generated `Dispatch` routing of the chosen declaration.
pub fn call<const D: usize>(
    declaration: Declaration,
    ids: Tensor<D, Int>,
    offset: i32,
) -> Tensor<D, Int> {
    let ids = ids.into_dispatch();
    trace::record_routing_tensor(&ids);
    Tensor::from_dispatch(dispatch(declaration, ids, offset))
}

/// The same computation with burn's builtin tensor ops.
pub fn reference<const D: usize>(ids: Tensor<D, Int>, offset: i32) -> Tensor<D, Int> {
    trace::record_builtin();
    ids.add_scalar(offset)
}
