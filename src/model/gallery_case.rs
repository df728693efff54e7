//! The gallery's burn snippets, as the page asks the engine to run them. The code each one runs
//! is in `engine::gallery`; the text its card shows, in `teach::words::gallery`.

use serde::{Deserialize, Serialize};

/// A burn snippet the engine runs for the gallery, exactly as its card shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum GalleryCase {
    /// `Tensor::cat` of two tensors on different backends.
    CatAcrossBackends,
    /// The backend-level `float_to_device` of an autodiff tensor to a plain device.
    BackendMoveOutOfAutodiff,
    /// A `Transaction` reading tensors of two backends.
    TransactionAcrossBackends,
    /// A `Transaction` reading autodiff tensors of two backends.
    TransactionAutodiffAcrossBackends,
    /// A `Transaction` reading an autodiff tensor, then a plain one.
    TransactionAutodiffThenPlain,
}

impl GalleryCase {
    /// Every case.
    pub const ALL: [GalleryCase; 5] = [
        GalleryCase::CatAcrossBackends,
        GalleryCase::BackendMoveOutOfAutodiff,
        GalleryCase::TransactionAcrossBackends,
        GalleryCase::TransactionAutodiffAcrossBackends,
        GalleryCase::TransactionAutodiffThenPlain,
    ];
}
