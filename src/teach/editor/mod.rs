//! The "Write your own" editor: what the page knows about a declaration a person typed, and what
//! burn's macro (run by the expander worker, `crates/macro-expander`) answered for it.
//!
//! - [`starting_text`]: the op's declaration as the exported project writes it.
//! - [`matching_lines`]: the catalog lines whose expansion is the typed one's, token for token.
//! - [`marks`]: the typed text as highlighted pieces, with the macro's errors marked at their
//!   bytes; places as people read them and as a text field selects them.
//! - [`sources`]: where each generated line comes from (the spans the macro gave its tokens):
//!   the lines a selection of the text is carried by, a line's origin in words, the impls and
//!   arms that serve one selector.
//! - [`verdict`]: what the page may say was checked, from the expander's answer.
//! - [`versions`]: the text under 0.23.0-pre.1's macro code against 0.22.1's.

pub mod marks;
pub mod sources;
pub mod versions;

use macro_expander::{Expansion, MacroVersion, Origin};

use crate::model::scenario::{Declaration, OpKind};
use crate::teach::code::op_sources;

/// `version`'s expansion among a text's expansions (one per version, in [`MacroVersion::ALL`]'s
/// order, as the expander answers).
pub fn of_version(versions: &[Expansion], version: MacroVersion) -> Option<Expansion> {
    let index = MacroVersion::ALL.iter().position(|held| *held == version)?;
    versions.get(index).cloned()
}

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

/// What the editor offers for a catalog line the text expands to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Offer {
    /// Select the line in the scenario, which runs it.
    Run,
    /// The scenario is that line already: run it again.
    RunAgain,
    /// The line lists `Fusion`: load the engine built with burn's fusion, on that line.
    RunWithFusion,
    /// The engine built with fusion leaves the line out (rustc rejects it there): select it, and
    /// the scenario shows what rustc says.
    ShowNotBuilt,
}

/// What the page says of `line` of `op`, which the text expands to token for token (as do
/// `matches` catalog lines in all), and what it offers, when the page runs burn with fusion or
/// not (`fusion`) and the scenario is that line already or not (`selected`).
pub fn line_words(
    op: OpKind,
    line: Declaration,
    matches: usize,
    fusion: bool,
    selected: bool,
) -> (String, Offer) {
    use crate::model::catalog::{AutodiffDeclared, FusionForm};
    use crate::teach::routing::diagnostics::fusion_diagnostic;
    let feature = match line.autodiff() {
        AutodiffDeclared::CfgOff => " built with its cfg's feature off",
        AutodiffDeclared::CfgOn => " built with its cfg's feature on",
        AutodiffDeclared::Absent | AutodiffDeclared::Listed => "",
    };
    let runs_with_fusion = fusion || line.fusion() != FusionForm::None;
    let (where_, offer) = if runs_with_fusion && fusion_diagnostic(op, line).is_some() {
        (
            "a line the engine built with burn's fusion leaves out: rustc rejects it there, and \
             the scenario shows what rustc says.",
            Offer::ShowNotBuilt,
        )
    } else if !fusion && line.fusion() != FusionForm::None {
        (
            "a line of the engine built with burn's fusion: it runs there (the page loads that \
             engine).",
            Offer::RunWithFusion,
        )
    } else if selected {
        ("the scenario's line: it runs here.", Offer::RunAgain)
    } else {
        (
            "a line the engine was built with: it runs here.",
            Offer::Run,
        )
    };
    let mut words = format!(
        "Token for token, this is what the macro emits for #[backend_extension({})] of \
         {}{feature}, {where_}",
        line.selectors(),
        op.name()
    );
    if matches > 1 {
        words.push_str(&format!(
            " {matches} catalog lines expand to these tokens (the cfg's feature off and on); the \
             scenario keeps the one it has, or takes the first."
        ));
    }
    (words, offer)
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
            ..Expansion::default()
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
    fn a_line_is_offered_where_the_engine_built_it() {
        let (words, offer) = line_words(OpKind::ShiftIds, Declaration::CubeFlex, 1, false, true);
        assert_eq!(
            words,
            "Token for token, this is what the macro emits for #[backend_extension(Cube, Flex)] \
             of shift_ids, the scenario's line: it runs here."
        );
        assert_eq!(offer, Offer::RunAgain);
        assert_eq!(
            line_words(
                OpKind::Scale,
                Declaration::CubeFlexAutodiffFusion,
                1,
                false,
                false
            )
            .1,
            Offer::RunWithFusion
        );
        // scale has no default body: the fusion engine leaves that line out.
        assert_eq!(
            line_words(
                OpKind::Scale,
                Declaration::CubeFlexAutodiffFusionDefault,
                1,
                true,
                false
            )
            .1,
            Offer::ShowNotBuilt
        );
        let (words, offer) = line_words(
            OpKind::Scale,
            Declaration::CubeFlexAutodiffCfg,
            2,
            false,
            false,
        );
        assert_eq!(offer, Offer::Run);
        assert!(words.contains(" of scale built with its cfg's feature off, a line the engine"));
        assert!(words.ends_with(" 2 catalog lines expand to these tokens (the cfg's feature off and on); the scenario keeps the one it has, or takes the first."));
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
