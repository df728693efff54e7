//! "Take it home": the scenario as a Cargo project that reproduces it natively ([`project`]), and
//! that project as a `.zip` ([`zip`]); a declaration written in the editor as such a project
//! ([`edited`]).

pub mod edited;
pub mod project;
pub mod zip;
