//! The "Write your own" editor: what the page knows about a declaration a person typed, and what
//! burn's macro (run by the expander worker, `crates/macro-expander`) answered for it.
//!
//! - [`starting_text`]: the op's declaration as the exported project writes it.
//! - [`matching_lines`]: the catalog lines whose expansion is the typed one's, token for token.
//! - [`marks`]: the typed text as highlighted pieces, with the macro's errors marked at their
//!   bytes; places as people read them and as a text field selects them.
//! - [`verdict`]: what the page may say was checked, from the expander's answer.

pub mod marks;

use macro_expander::{Expansion, Origin};

use crate::model::scenario::{Declaration, OpKind};
use crate::teach::code::op_sources;

/// The most text the editor keeps: what the expander reads.
pub use macro_expander::MAX_TEXT_BYTES;

/// The text the editor starts from: `op`'s trait under `declaration`, exactly as the exported
/// project declares it (doc comments, the attribute, the method with its `#[fusion(...)]`).
pub fn starting_text(op: OpKind, declaration: Declaration) -> String {
    op_sources::trait_declaration(op, declaration)
}

/// Every catalog line of every op, with the tokens the macro emitted for its declaration (`None`
/// where it emitted none).
pub type Catalog = Vec<(OpKind, Declaration, Option<String>)>;

/// Every op's catalog lines, in the order [`Catalog`] pairs them with their expansions.
pub fn catalog_lines() -> impl Iterator<Item = (OpKind, Declaration)> {
    OpKind::ALL
        .into_iter()
        .flat_map(|op| Declaration::ALL.iter().map(move |line| (op, *line)))
}

/// The catalog lines that expand to exactly `tokens`, in catalog order.
pub fn matching_lines(
    tokens: &str,
    catalog: &[(OpKind, Declaration, Option<String>)],
) -> Vec<(OpKind, Declaration)> {
    catalog
        .iter()
        .filter(|(_, _, line_tokens)| line_tokens.as_deref() == Some(tokens))
        .map(|(op, declaration, _)| (*op, *declaration))
        .collect()
}

/// `text` cut to at most [`MAX_TEXT_BYTES`] (at a character boundary), and whether it was cut.
pub fn capped(text: &str) -> (&str, bool) {
    if text.len() <= MAX_TEXT_BYTES {
        return (text, false);
    }
    let mut end = MAX_TEXT_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    (&text[..end], true)
}

/// What the page may say about the expander's answer: exactly what was checked, no more.
pub fn verdict(expansion: &Expansion) -> String {
    let macro_name = format!("burn-backend-extension {}", expansion.macro_version);
    match expansion.errors.first().map(|error| error.origin) {
        None => format!(
            "{macro_name}'s own code expanded this declaration without an error. That is all that \
             was checked: rustc's type and borrow checks run only when the expansion is built."
        ),
        Some(Origin::Macro) if expansion.code.is_some() => format!(
            "{macro_name}'s own code expanded this declaration, and reported {} beside the code \
             it emitted: rustc stops there when it builds it.",
            errors_word(expansion.errors.len())
        ),
        Some(Origin::Macro) => format!("{macro_name}'s own code rejected this declaration."),
        Some(Origin::Tokens) => {
            "The text is not Rust tokens: burn's macro was not run on it.".to_owned()
        }
        Some(Origin::Syntax) => {
            "The text is not a list of Rust items: burn's macro was not run on it.".to_owned()
        }
        Some(Origin::Limit) => "burn's macro was not run on this text.".to_owned(),
    }
}

fn errors_word(count: usize) -> String {
    if count == 1 {
        "an error".to_owned()
    } else {
        format!("{count} errors")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use macro_expander::MacroError;

    fn expansion(code: bool, origins: &[Origin]) -> Expansion {
        Expansion {
            code: code.then(|| "trait A {}".to_owned()),
            tokens: code.then(|| "trait A { }".to_owned()),
            errors: origins
                .iter()
                .map(|origin| MacroError {
                    message: "no".to_owned(),
                    place: None,
                    origin: *origin,
                })
                .collect(),
            macro_version: "0.22.1".to_owned(),
        }
    }

    #[test]
    fn the_verdict_says_which_step_answered() {
        assert_eq!(
            verdict(&expansion(true, &[])),
            "burn-backend-extension 0.22.1's own code expanded this declaration without an \
             error. That is all that was checked: rustc's type and borrow checks run only when \
             the expansion is built."
        );
        assert_eq!(
            verdict(&expansion(true, &[Origin::Macro, Origin::Macro])),
            "burn-backend-extension 0.22.1's own code expanded this declaration, and reported 2 \
             errors beside the code it emitted: rustc stops there when it builds it."
        );
        assert_eq!(
            verdict(&expansion(false, &[Origin::Macro])),
            "burn-backend-extension 0.22.1's own code rejected this declaration."
        );
        assert_eq!(
            verdict(&expansion(false, &[Origin::Tokens])),
            "The text is not Rust tokens: burn's macro was not run on it."
        );
    }

    #[test]
    fn lines_match_on_equal_tokens_only() {
        let catalog: Catalog = vec![
            (OpKind::Scale, Declaration::CubeFlex, Some("a".to_owned())),
            (
                OpKind::Scale,
                Declaration::CubeFlexAutodiffCfg,
                Some("b".to_owned()),
            ),
            (
                OpKind::Scale,
                Declaration::CubeFlexAutodiffCfgOn,
                Some("b".to_owned()),
            ),
            (OpKind::LeakyRelu, Declaration::CubeFlex, None),
        ];
        assert_eq!(
            matching_lines("b", &catalog),
            [
                (OpKind::Scale, Declaration::CubeFlexAutodiffCfg),
                (OpKind::Scale, Declaration::CubeFlexAutodiffCfgOn)
            ]
        );
        assert!(matching_lines("c", &catalog).is_empty());
    }

    #[test]
    fn the_cap_cuts_at_a_character_boundary() {
        let text = "é".repeat(MAX_TEXT_BYTES);
        let (kept, cut) = capped(&text);
        assert!(cut);
        assert_eq!(kept.len(), MAX_TEXT_BYTES);
        assert_eq!(capped("trait A {}"), ("trait A {}", false));
    }

    #[test]
    fn the_catalog_pairs_every_op_with_every_line() {
        let lines: Vec<_> = catalog_lines().collect();
        assert_eq!(lines.len(), OpKind::ALL.len() * Declaration::ALL.len());
        assert_eq!(lines[0], (OpKind::ALL[0], Declaration::ALL[0]));
    }
}
