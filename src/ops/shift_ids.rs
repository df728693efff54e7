//! `shift_ids(ids, offset) = ids + offset`: an int op, as used to move token ids into a shared
//! vocabulary before an embedding lookup inside a training step.
//!
//! Its only tensor input is an int tensor, so that int tensor is the routing tensor. Int tensors
//! are never autodiff-wrapped, so on an autodiff device the generated code reaches the concrete
//! backend with an *enabled* autodiff context — the path where the generated concrete arm refuses
//! that context when the op is declared without `Autodiff`.

use burn::backend::{
    Backend, Dispatch,
    autodiff::{Autodiff, checkpoint::strategy::CheckpointStrategy},
    tensor::IntTensor,
};
use burn::tensor::{Int, Tensor};

use super::trace;
use crate::scenario::Declaration;

/// Declares the `ShiftIdsOps` trait under the given selectors and implements it for the concrete
/// backends (empty impls: the default body is the forward).
macro_rules! declare_shift_ids_ops {
    ($($selector:ident),*) => {
        /// The `shift_ids` op.
        #[burn::backend::backend_extension($($selector),*)]
        pub trait ShiftIdsOps: burn::backend::Backend {
            /// Adds `offset` to every id.
            fn shift_ids(ids: IntTensor<Self>, offset: i32) -> IntTensor<Self> {
                trace::record::<Self>("shift_ids");
                Self::int_add_scalar(ids, offset.into())
            }
        }

        impl ShiftIdsOps for burn::backend::Cube {}
        impl ShiftIdsOps for burn::backend::Flex {}
    };
}

/// `#[backend_extension(Cube, Flex)]`: no `Autodiff` selector.
pub mod cube_flex {
    use super::*;
    declare_shift_ids_ops!(Cube, Flex);
}

/// `#[backend_extension(Cube, Flex, Autodiff)]` with an `Autodiff<B, C>` impl (the default
/// body). Ints carry no gradient, so the generated routing never calls it, but the `Autodiff`
/// selector makes the routing accept an autodiff context.
pub mod cube_flex_autodiff {
    use super::*;
    declare_shift_ids_ops!(Cube, Flex, Autodiff);
    impl<B: Backend, C: CheckpointStrategy> ShiftIdsOps for Autodiff<B, C> {}
}

/// `#[backend_extension(Cube)]`: the `Flex` impl exists, but the routing never reaches it.
pub mod cube {
    use super::*;
    declare_shift_ids_ops!(Cube);
}

/// `#[backend_extension(Cube, Autodiff)]`.
pub mod cube_autodiff {
    use super::*;
    declare_shift_ids_ops!(Cube, Autodiff);
    impl<B: Backend, C: CheckpointStrategy> ShiftIdsOps for Autodiff<B, C> {}
}

/// Calls the custom op through the generated `Dispatch` routing of the chosen declaration.
pub fn call<const D: usize>(
    declaration: Declaration,
    ids: Tensor<D, Int>,
    offset: i32,
) -> Tensor<D, Int> {
    let ids = ids.into_dispatch();
    Tensor::from_dispatch(match (declaration.flex, declaration.autodiff) {
        (true, false) => <Dispatch as cube_flex::ShiftIdsOps>::shift_ids(ids, offset),
        (true, true) => <Dispatch as cube_flex_autodiff::ShiftIdsOps>::shift_ids(ids, offset),
        (false, false) => <Dispatch as cube::ShiftIdsOps>::shift_ids(ids, offset),
        (false, true) => <Dispatch as cube_autodiff::ShiftIdsOps>::shift_ids(ids, offset),
    })
}

/// The same computation with burn's builtin tensor ops.
pub fn reference<const D: usize>(ids: Tensor<D, Int>, offset: i32) -> Tensor<D, Int> {
    ids.add_scalar(offset)
}
