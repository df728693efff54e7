//! Whatever the editor holds, the expander answers: an expansion or errors, never a panic (in the
//! page's worker a panic would be a trap, which the page survives, but the text would go
//! unanswered).

use proptest::prelude::*;

/// A declaration as the editor starts from it.
const DECLARATION: &str = "/// The `scale` op.
#[backend_extension(Cube, Flex, Autodiff, Fusion)]
pub trait ScaleOps: Backend {
    /// Multiplies every element of `x` by `factor`.
    #[fusion(dtype = x, shape = x)]
    fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;
}
";

/// Pieces a person types into a declaration.
const PIECES: &[&str] = &[
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ",",
    ";",
    ":",
    "#",
    "!",
    "&",
    "'a",
    "\"",
    "//",
    "/*",
    "Self",
    "FloatTensor<Self>",
    "IntTensor<Self>",
    "BoolTensor<Self>",
    "Option<",
    "Vec<",
    "Autodiff",
    "Fusion",
    "Flex",
    "Cube",
    "Cuda",
    "cfg(feature = \"x\")",
    "#[fusion(default)]",
    "#[fusion(meta = f)]",
    "#[extension_type]",
    "fn ",
    "-> ",
    "&self",
    "impl ",
    "trait ",
    "é",
];

fn answers(text: &str) {
    for version in macro_expander::MacroVersion::ALL {
        answers_with(text, version);
    }
}

fn answers_with(text: &str, version: macro_expander::MacroVersion) {
    let expansion = macro_expander::expand(text, version);
    assert!(
        expansion.code.is_some() || !expansion.errors.is_empty(),
        "neither code nor an error for {text:?}"
    );
    for error in &expansion.errors {
        if let Some(place) = &error.place {
            assert!(place.bytes.start <= place.bytes.end && place.bytes.end <= text.len());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn any_text_is_answered(text in any::<String>()) {
        answers(&text);
    }

    #[test]
    fn any_edit_of_a_declaration_is_answered(
        cut in 0..DECLARATION.len(),
        length in 0usize..12,
        pieces in prop::collection::vec(prop::sample::select(PIECES), 0..4),
    ) {
        let mut start = cut;
        while !DECLARATION.is_char_boundary(start) {
            start -= 1;
        }
        let mut end = (start + length).min(DECLARATION.len());
        while !DECLARATION.is_char_boundary(end) {
            end -= 1;
        }
        let text = format!("{}{}{}", &DECLARATION[..start], pieces.concat(), &DECLARATION[end..]);
        answers(&text);
    }
}
