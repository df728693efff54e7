//! One text under two versions of burn's macro code: 0.22.1, whose routing the engine runs, and
//! 0.23.0-pre.1, expansion only. What differs is read from the two expansions (their code, and
//! the backend catalogs the two versions answered with), never from a list written here.

use macro_expander::Expansion;

use crate::teach::routing::diff::{RoutingDiff, code_diff};
use crate::teach::words::explain::and_list;

/// A declaration whose routing the two versions generate differently: an int input beside a
/// float one, with `Autodiff` listed. 0.22.1 decides on the autodiff impl from the routing tensor
/// being a float and the merged context of all inputs; 0.23.0-pre.1 from a float input's own
/// context (the diff shows it). It is also an edited case of `tests/golden/editor-cases.txt`,
/// which rustc checks (`tests/expansion.rs`).
pub const VERSION_EXAMPLE: &str = "#[backend_extension(Cube, Flex, Autodiff)]
pub trait GatherScaledOps: Backend {
    fn gather_scaled(ids: IntTensor<Self>, x: FloatTensor<Self>) -> FloatTensor<Self>;
}
";

/// The selectors `new`'s catalog drops and adds against `old`'s, in a sentence; `None` when the
/// two list the same backends.
pub fn catalog_change(new: &Expansion, old: &Expansion) -> Option<String> {
    let dropped: Vec<&str> = old
        .catalog
        .iter()
        .filter(|name| !new.catalog.contains(name))
        .map(String::as_str)
        .collect();
    let added: Vec<&str> = new
        .catalog
        .iter()
        .filter(|name| !old.catalog.contains(name))
        .map(String::as_str)
        .collect();
    if dropped.is_empty() && added.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    if !dropped.is_empty() {
        parts.push(format!("drops {}", names(&dropped)));
    }
    if !added.is_empty() {
        parts.push(format!("adds {}", names(&added)));
    }
    Some(format!(
        "burn-backend-extension {}'s backend catalog {} against {}'s: a selector it drops is \
         an error there.",
        new.macro_version,
        parts.join(" and "),
        old.macro_version
    ))
}

fn names(items: &[&str]) -> String {
    let quoted: Vec<String> = items.iter().map(|item| format!("`{item}`")).collect();
    and_list(&quoted)
}

/// The diff of `new`'s generated code against `old`'s, when both emitted code.
pub fn version_diff(new: &Expansion, old: &Expansion) -> Option<RoutingDiff> {
    Some(code_diff(
        new.code.as_deref()?,
        old.code.as_deref()?,
        &format!("burn-backend-extension {}", new.macro_version),
        &old.macro_version,
        &format!(
            "burn-backend-extension {} and {} generate the same code for this text, line for line.",
            new.macro_version, old.macro_version
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listing(version: &str, catalog: &[&str]) -> Expansion {
        Expansion {
            macro_version: version.to_owned(),
            catalog: catalog.iter().map(|name| (*name).to_owned()).collect(),
            ..Expansion::default()
        }
    }

    #[test]
    fn the_catalog_change_names_what_went_and_came() {
        let old = listing("0.22.1", &["Cube", "Flex", "NdArray", "LibTorch"]);
        let new = listing("0.23.0-pre.1", &["Cube", "Flex", "Group"]);
        assert_eq!(
            catalog_change(&new, &old).as_deref(),
            Some(
                "burn-backend-extension 0.23.0-pre.1's backend catalog drops `NdArray` and \
                 `LibTorch` and adds `Group` against 0.22.1's: a selector it drops is an error \
                 there."
            )
        );
        assert_eq!(catalog_change(&old, &old), None);
    }
}
