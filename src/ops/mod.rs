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

/// Stamps an op under every line of the declaration catalog: a module per line holding the
/// op's trait (declared by the op's `declare` macro with the line's selectors) and, where the
/// line lists `Autodiff`, the op's `Autodiff<B, C>` impl (its `autodiff_impl` macro, behind the
/// line's cfg if it has one); then `dispatch`, the op through the routing of a chosen line.
///
/// A `CfgOn` line is not stamped here: this crate's `autodiff` feature is off, so its cfg could
/// not hold. Its module re-exports the same declaration from the crate `autodiff-feature-on`,
/// which is built with the feature on.
///
/// Used as `declaration_catalog!(stamp_declarations! { op: …, declare: …, autodiff_impl: …,
/// trait: …, fn op(arg: Type, …) -> Output })`.
macro_rules! stamp_declarations {
    (
        {
            op: $op:ident,
            declare: $declare:ident,
            autodiff_impl: $autodiff_impl:ident,
            trait: $trait:ident,
            fn $method:ident($($arg:ident: $arg_type:ty),*) -> $output:ty
        }
        $($variant:ident $module:ident $autodiff:ident $(($($gate:tt)*))? $flex:literal [$($selectors:tt)*];)*
    ) => {
        $(
            $crate::ops::stamp_line!(
                $autodiff $(($($gate)*))?, $op, $module, $declare, $autodiff_impl, [$($selectors)*]
            );
        )*
        $crate::ops::stamp_declarations!(
            @dispatch $trait, $method, ($($arg: $arg_type),*), ($($arg),*), $output,
            $($variant $module)*
        );
    };
    (@dispatch $trait:ident, $method:ident, ($($param:tt)*), $args:tt, $output:ty, $($variant:ident $module:ident)*) => {
        /// Calls the op through the generated `Dispatch` routing of `declaration`'s trait.
        pub fn dispatch(declaration: $crate::model::catalog::Declaration, $($param)*) -> $output {
            match declaration {
                $(
                    $crate::model::catalog::Declaration::$variant => {
                        <burn::backend::Dispatch as $module::$trait>::$method $args
                    }
                )*
            }
        }
    };
}
pub(crate) use stamp_declarations;

/// One line of the catalog for one op: its module.
macro_rules! stamp_line {
    (CfgOn($($gate:tt)*), $op:ident, $module:ident, $declare:ident, $autodiff_impl:ident, [$($selectors:tt)*]) => {
        #[doc = concat!("`#[backend_extension(", stringify!($($selectors)*), ")]`, built with the feature on (crate `autodiff-feature-on`).")]
        pub mod $module {
            pub use autodiff_feature_on::$op::$module::*;
        }
    };
    ($autodiff:ident $(($($gate:tt)*))?, $op:ident, $module:ident, $declare:ident, $autodiff_impl:ident, [$($selectors:tt)*]) => {
        #[doc = concat!("`#[backend_extension(", stringify!($($selectors)*), ")]`.")]
        pub mod $module {
            use super::*;
            $declare!($($selectors)*);
            $crate::ops::autodiff_impl!($autodiff $(($($gate)*))?, $autodiff_impl);
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
