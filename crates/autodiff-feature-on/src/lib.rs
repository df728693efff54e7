//! The playground's ops declared `#[backend_extension(…, Autodiff: cfg(feature = "autodiff"))]`,
//! built with the feature **on**.
//!
//! A cfg on a selector is evaluated in the crate that declares the op, with that crate's
//! features. The playground's own crate declares these lines with its `autodiff` feature off
//! (the routing arms the cfg gates are compiled out); this crate declares the very same lines
//! and turns the feature on by default, so the page can run what "enable the feature" builds
//! instead of describing it. The playground re-exports each module as the catalog line with the
//! feature on (`crate::ops::*::cube_flex_autodiff_cfg_on`, …).
//!
//! Nothing here is a copy: the implementations, kernel, backward step and default bodies are the
//! playground's own files (`src/ops/*/`), included as text, and `tests/expansion.rs` checks that
//! each trait below is the one the playground declares. Which implementation ran is recorded
//! through [`trace::install`], so the playground's own log sees it.

pub mod trace {
    //! Forwards "this implementation ran" to the recorder the playground installs.

    use std::sync::OnceLock;

    /// Receives the op's name and the implementing type's name.
    pub type Recorder = fn(&'static str, &'static str);

    static RECORDER: OnceLock<Recorder> = OnceLock::new();

    /// Installs the recorder (the first one installed stays).
    pub fn install(recorder: Recorder) {
        let _ = RECORDER.set(recorder);
    }

    /// Notes that `op`'s implementation for backend type `B` is running.
    pub fn record<B: ?Sized>(op: &'static str) {
        if let Some(recorder) = RECORDER.get() {
            recorder(op, std::any::type_name::<B>());
        }
    }
}

#[cfg(not(feature = "fusion"))]
pub mod scale {
    //! `scale(x, factor) = factor · x`: hand-written kernel and backward. Not built under burn's
    //! fusion: its concrete impl works on CubeCL's own tensors, and `Cube` is then
    //! `Fusion<CubeBackend>`.
    use burn::backend::{
        Backend, Cube, Flex, TensorMetadata,
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
    use burn_cubecl::{kernel::into_contiguous, tensor::CubeTensor};
    use cubecl::{CubeCount, CubeDim, prelude::InputScalar};

    use crate::trace;

    macro_rules! declare {
        ($module:ident, [$($selector:tt)*]) => {
            #[doc = concat!("`#[backend_extension(", stringify!($($selector)*), ")]`, feature on.")]
            pub mod $module {
                use super::*;

                /// The `scale` op: `factor · x`, element-wise.
                #[burn::backend::backend_extension($($selector)*)]
                pub trait ScaleOps: Backend {
                    /// Multiplies every element of `x` by `factor`.
                    fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;
                }

                include!("../../../src/ops/scale/concrete.rs");
                #[cfg(feature = "autodiff")]
                include!("../../../src/ops/scale/autodiff.rs");
                #[cfg(feature = "autodiff")]
                include!("../../../src/ops/scale/backward.rs");
            }
        };
    }

    declare!(cube_flex_autodiff_cfg_on, [Cube, Flex, Autodiff: cfg(feature = "autodiff")]);
    declare!(cube_autodiff_cfg_on, [Cube, Autodiff: cfg(feature = "autodiff")]);

    include!("../../../src/ops/scale/kernel.rs");
}

pub mod leaky_relu {
    //! `leaky_relu(x, slope)`: a default trait body of differentiable primitives.
    use burn::backend::{
        Backend, Cube, Flex,
        autodiff::{Autodiff, checkpoint::strategy::CheckpointStrategy},
        tensor::FloatTensor,
    };

    use crate::trace;

    macro_rules! declare {
        ($module:ident, [$($selector:tt)*]) => {
            #[doc = concat!("`#[backend_extension(", stringify!($($selector)*), ")]`, feature on.")]
            pub mod $module {
                use super::*;

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

                include!("../../../src/ops/leaky_relu/concrete.rs");
                #[cfg(feature = "autodiff")]
                include!("../../../src/ops/leaky_relu/autodiff.rs");
            }
        };
    }

    declare!(cube_flex_autodiff_cfg_on, [Cube, Flex, Autodiff: cfg(feature = "autodiff")]);
    declare!(cube_autodiff_cfg_on, [Cube, Autodiff: cfg(feature = "autodiff")]);

    include!("../../../src/ops/leaky_relu/body.rs");
}

pub mod shift_ids {
    //! `shift_ids(ids, offset)`: an int op, with a default body.
    use burn::backend::{
        Backend, Cube, Flex,
        autodiff::{Autodiff, checkpoint::strategy::CheckpointStrategy},
        tensor::IntTensor,
    };

    use crate::trace;

    macro_rules! declare {
        ($module:ident, [$($selector:tt)*]) => {
            #[doc = concat!("`#[backend_extension(", stringify!($($selector)*), ")]`, feature on.")]
            pub mod $module {
                use super::*;

                /// The `shift_ids` op: moves token ids, an int tensor, by an offset.
                #[burn::backend::backend_extension($($selector)*)]
                pub trait ShiftIdsOps: Backend {
                    /// Adds `offset` to every id.
                    fn shift_ids(ids: IntTensor<Self>, offset: i32) -> IntTensor<Self> {
                        trace::record::<Self>("shift_ids");
                        shift_ids_body::<Self>(ids, offset)
                    }
                }

                include!("../../../src/ops/shift_ids/concrete.rs");
                #[cfg(feature = "autodiff")]
                include!("../../../src/ops/shift_ids/autodiff.rs");
            }
        };
    }

    declare!(cube_flex_autodiff_cfg_on, [Cube, Flex, Autodiff: cfg(feature = "autodiff")]);
    declare!(cube_autodiff_cfg_on, [Cube, Autodiff: cfg(feature = "autodiff")]);

    include!("../../../src/ops/shift_ids/body.rs");
}
