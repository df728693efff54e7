//! "Take it home": the scenario as a Cargo project that reproduces it natively ([`project`]), and
//! that project as a `.zip` ([`zip`]).

pub mod project;
pub mod zip;
