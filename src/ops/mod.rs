//! The playground's custom ops, one file each.
//!
//! Every op file holds, side by side: a `macro_rules!` that stamps the op's trait under a given
//! `#[backend_extension(...)]` selector list (so each declaration variant is a real expansion of
//! burn's macro), the concrete implementations for `Cube` (WebGPU) and `Flex` (CPU), the
//! `Autodiff<B, C>` implementation where the op has one, a `call` function that goes through the
//! generated `Dispatch` routing, and a `reference` built from burn's builtin tensor ops.
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
