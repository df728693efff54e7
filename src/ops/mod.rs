//! The playground's custom ops, one file each.
//!
//! Every op file holds, side by side: a `macro_rules!` that declares the op's trait under a
//! given `#[backend_extension(...)]` selector list, the concrete implementations for `Cube`
//! (WebGPU) and `Flex` (CPU), the `Autodiff<B, C>` implementation where the op has one, and a
//! `reference` built from burn's builtin tensor ops. [`stamp_declarations!`] then stamps the
//! trait once per line of the [declaration catalog](crate::model::catalog) — each a separate,
//! real expansion of burn's macro — and writes the op's `dispatch`, which calls the trait of a
//! chosen declaration through the generated `Dispatch` routing.
//!
//! | op | routing tensor | forward | autodiff impl |
//! |---|---|---|---|
//! | [`scale`] | float | hand-written CubeCL kernel | hand-written `Backward` |
//! | [`leaky_relu`] | float | default trait body of primitives | the same default body |
//! | [`shift_ids`] | int | default trait body of primitives | the same default body (never needed) |

pub mod leaky_relu;
pub mod scale;
pub mod shift_ids;
pub mod trace;

use crate::model::catalog::Declaration;
use crate::model::scenario::OpKind;

/// Whether `op` declared as `declaration` builds in this engine (see [`NotBuilt`]).
pub fn built(op: OpKind, declaration: Declaration) -> bool {
    match op {
        OpKind::Scale => scale::built(declaration),
        OpKind::LeakyRelu => leaky_relu::built(declaration),
        OpKind::ShiftIds => shift_ids::built(declaration),
    }
}

/// A catalog line whose declaration does not build in this engine: burn compiled without or with
/// its `fusion` feature, the op's `Dispatch` impl cannot be generated or does not compile
/// (`tests/diagnostics.rs` captures what rustc says; the page shows that instead of running).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NotBuilt;

/// What a call of a declaration the engine checked with [`built`] expects: the engine answers
/// `NotBuilt` for the whole run or training before calling, so the op's call never does.
pub const CHECKED_BUILT: &str = "the engine checks that the declaration builds before calling it";

/// Stamps an op under every line of the declaration catalog: a module per line holding the
/// op's trait (declared by the op's `declare` macro with the line's selectors and `#[fusion]`
/// form) and, where the line lists `Autodiff`, the op's `Autodiff<B, C>` impl (its
/// `autodiff_impl` macro, behind the line's cfg if it has one); and in each module `routed`, the
/// op through that line's generated `Dispatch` routing. Then `dispatch`, `routed` of a chosen
/// line.
///
/// Which lines build in this engine is the op's `builds` macro's answer, a cfg predicate per
/// (autodiff, fusion form): a line lists `Fusion` only under burn's `fusion` feature, and an op
/// whose concrete impl is written against CubeCL's own tensors (scale) builds without `Fusion`
/// only without that feature. A line that does not build gets a module whose `routed` answers
/// [`NotBuilt`].
///
/// A `CfgOn` line is not stamped here: this crate's `autodiff` feature is off, so its cfg could
/// not hold. Its module re-exports the same declaration from the crate `autodiff-feature-on`,
/// which is built with the feature on.
///
/// Used as `declaration_catalog!(stamp_declarations! { op: …, declare: …, autodiff_impl: …,
/// builds: …, trait: …, fn op(arg: Type, …) -> Output })`.
macro_rules! stamp_declarations {
    (
        {
            op: $op:ident,
            declare: $declare:ident,
            autodiff_impl: $autodiff_impl:ident,
            builds: $builds:ident,
            trait: $trait:ident,
            fn $method:ident($($arg:ident: $arg_type:ty),*) -> $output:ty
        }
        $($row:tt)*
    ) => {
        // The signature, bundled once, so each row can carry it whole.
        $crate::ops::stamp_declarations!(
            @rows [
                $op, $declare, $autodiff_impl, $builds, $trait, $method,
                ($($arg: $arg_type),*), ($($arg),*), $output
            ]
            $($row)*
        );
    };
    (
        @rows [
            $op:ident, $declare:ident, $autodiff_impl:ident, $builds:ident, $trait:ident,
            $method:ident, $params:tt, $args:tt, $output:ty
        ]
        $($variant:ident $module:ident $autodiff:ident $(($($gate:tt)*))? $flex:literal $fusion:ident [$($selectors:tt)*];)*
    ) => {
        $(
            $builds! {
                $autodiff $fusion,
                $autodiff $(($($gate)*))?, $fusion, $op, $module, $declare, $autodiff_impl,
                [$($selectors)*], $trait, $method, $params, $args, $output
            }
        )*
        $crate::ops::stamp_declarations!(@dispatch $params, $args, $output, $($variant $module)*);
    };
    (@dispatch ($($param:ident: $param_type:ty),*), $args:tt, $output:ty, $($variant:ident $module:ident)*) => {
        /// Calls the op through the generated `Dispatch` routing of `declaration`'s trait, or
        /// answers [`NotBuilt`](crate::ops::NotBuilt) when that declaration does not build in this
        /// engine.
        pub fn dispatch(
            declaration: $crate::model::catalog::Declaration,
            $($param: $param_type),*
        ) -> Result<$output, $crate::ops::NotBuilt> {
            match declaration {
                $($crate::model::catalog::Declaration::$variant => $module::routed $args,)*
            }
        }

        /// Whether `declaration` builds in this engine.
        pub fn built(declaration: $crate::model::catalog::Declaration) -> bool {
            match declaration {
                $($crate::model::catalog::Declaration::$variant => $module::BUILT,)*
            }
        }
    };
}
pub(crate) use stamp_declarations;

/// One line of the catalog for one op: its module, when `[$($built)*]` (a cfg predicate from
/// the op's `builds` macro) holds, and a module answering [`NotBuilt`] when it does not.
macro_rules! stamp_line {
    (
        [$($built:tt)*]
        $autodiff:ident $(($($gate:tt)*))?, $fusion:ident, $op:ident, $module:ident, $declare:ident,
        $autodiff_impl:ident, [$($selectors:tt)*], $trait:ident, $method:ident,
        ($($param:ident: $param_type:ty),*), $args:tt, $output:ty
    ) => {
        #[cfg($($built)*)]
        $crate::ops::stamp_line!(
            @module $autodiff $(($($gate)*))?, $fusion, $op, $module, $declare, $autodiff_impl,
            [$($selectors)*], $trait, $method, ($($param: $param_type),*), $args, $output
        );
        #[cfg(not($($built)*))]
        #[doc = concat!("`#[backend_extension(", stringify!($($selectors)*), ")]`: does not build in this engine.")]
        pub mod $module {
            use super::*;

            /// Whether this declaration builds in this engine.
            pub const BUILT: bool = false;

            /// This declaration does not build in this engine.
            pub fn routed($(_: $param_type),*) -> Result<$output, $crate::ops::NotBuilt> {
                Err($crate::ops::NotBuilt)
            }
        }
    };
    (
        @module CfgOn($($gate:tt)*), $fusion:ident, $op:ident, $module:ident, $declare:ident,
        $autodiff_impl:ident, [$($selectors:tt)*], $trait:ident, $method:ident,
        ($($param:ident: $param_type:ty),*), ($($arg:ident),*), $output:ty
    ) => {
        #[doc = concat!("`#[backend_extension(", stringify!($($selectors)*), ")]`, built with the feature on (crate `autodiff-feature-on`).")]
        pub mod $module {
            use super::*;
            pub use autodiff_feature_on::$op::$module::*;

            /// Whether this declaration builds in this engine.
            pub const BUILT: bool = true;

            /// The op through this declaration's generated routing.
            pub fn routed($($param: $param_type),*) -> Result<$output, $crate::ops::NotBuilt> {
                Ok(<burn::backend::Dispatch as $trait>::$method($($arg),*))
            }
        }
    };
    (
        @module $autodiff:ident $(($($gate:tt)*))?, $fusion:ident, $op:ident, $module:ident,
        $declare:ident, $autodiff_impl:ident, [$($selectors:tt)*], $trait:ident, $method:ident,
        ($($param:ident: $param_type:ty),*), ($($arg:ident),*), $output:ty
    ) => {
        #[doc = concat!("`#[backend_extension(", stringify!($($selectors)*), ")]`.")]
        pub mod $module {
            use super::*;
            $declare!([$($selectors)*] $fusion);
            $crate::ops::autodiff_impl!($autodiff $(($($gate)*))?, $autodiff_impl);

            /// Whether this declaration builds in this engine.
            pub const BUILT: bool = true;

            /// The op through this declaration's generated routing.
            pub fn routed($($param: $param_type),*) -> Result<$output, $crate::ops::NotBuilt> {
                Ok(<burn::backend::Dispatch as $trait>::$method($($arg),*))
            }
        }
    };
}
pub(crate) use stamp_line;

/// The op's `Autodiff<B, C>` impl as a catalog line declares it: absent, present, or behind the
/// line's cfg.
macro_rules! autodiff_impl {
    (Absent, $autodiff_impl:ident) => {};
    (Listed, $autodiff_impl:ident) => {
        $autodiff_impl!();
    };
    (CfgOff($($gate:tt)*), $autodiff_impl:ident) => {
        #[cfg($($gate)*)]
        $autodiff_impl!();
    };
}
pub(crate) use autodiff_impl;

/// The catalog lines an op whose concrete impls are empty (its default trait body is the forward:
/// leaky_relu, shift_ids) builds under, as cfg predicates (see [`stamp_declarations!`]): without
/// `Fusion` always (the empty impl for `Cube` takes the default body, whatever `Cube` is), with
/// `Fusion` only when burn's fusion is on.
macro_rules! default_body_builds {
    ($autodiff:ident None, $($line:tt)*) => { $crate::ops::stamp_line! { [all()] $($line)* } };
    ($autodiff:ident $form:ident, $($line:tt)*) => { $crate::ops::stamp_line! { [feature = "fusion"] $($line)* } };
}
pub(crate) use default_body_builds;

/// `#[fusion(meta = same_spec)]`: the output's spec is the input's, whatever the op's parameter.
#[cfg(feature = "fusion")]
pub fn same_spec<P>(
    input: &burn::backend::fusion::custom::TensorSpec,
    _param: &P,
) -> burn::backend::fusion::custom::TensorSpec {
    input.clone()
}
