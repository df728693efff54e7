//! Where each line of the formatted expansion comes from: the typed bytes its tokens carry (the
//! spans burn's macro gave them), and the impls and arms that serve one selector.

use macro_expander::{Expansion, MacroVersion, Region, Served};

const SCALE: &str = "#[backend_extension(Cube, Flex)]\n\
    pub trait ScaleOps: Backend {\n    \
        fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;\n\
    }\n";

const SCALE_WITH_FUSION: &str = "#[backend_extension(Cube, Flex, Autodiff, Fusion)]\n\
    pub trait ScaleOps: Backend {\n    \
        #[fusion(dtype = x, shape = x)]\n    \
        fn scale(x: FloatTensor<Self>, factor: f32) -> FloatTensor<Self>;\n\
    }\n";

fn code_lines(expansion: &Expansion) -> Vec<&str> {
    expansion
        .code
        .as_deref()
        .unwrap_or_default()
        .lines()
        .collect()
}

/// The lines (from 0) whose sources meet `bytes` of the text.
fn carrying(expansion: &Expansion, bytes: std::ops::Range<usize>) -> Vec<usize> {
    expansion
        .line_sources
        .iter()
        .enumerate()
        .filter(|(_, sources)| {
            sources
                .iter()
                .any(|source| source.start < bytes.end && bytes.start < source.end)
        })
        .map(|(line, _)| line)
        .collect()
}

/// The lines (from 0) where `word` is printed as a whole identifier.
fn naming(expansion: &Expansion, word: &str) -> Vec<usize> {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    code_lines(expansion)
        .iter()
        .enumerate()
        .filter(|(_, line)| {
            line.match_indices(word).any(|(at, _)| {
                !line[..at].ends_with(is_ident) && !line[at + word.len()..].starts_with(is_ident)
            })
        })
        .map(|(index, _)| index)
        .collect()
}

fn bytes_of(text: &str, word: &str) -> std::ops::Range<usize> {
    let start = text.find(word).expect("the word is in the text");
    start..start + word.len()
}

#[test]
fn every_line_the_expansion_has_gets_its_sources() {
    for version in MacroVersion::ALL {
        for text in [SCALE, SCALE_WITH_FUSION] {
            let expansion = macro_expander::expand(text, version);
            assert_eq!(expansion.errors, vec![]);
            assert_eq!(expansion.line_sources.len(), code_lines(&expansion).len());
        }
    }
}

#[test]
fn each_line_naming_a_listed_backend_carries_its_selector() {
    for version in MacroVersion::ALL {
        let expansion = macro_expander::expand(SCALE, version);
        let names: Vec<&str> = expansion
            .selectors
            .iter()
            .map(|selector| selector.name.as_str())
            .collect();
        assert_eq!(names, ["Cube", "Flex"]);
        for selector in &expansion.selectors {
            assert_eq!(&SCALE[selector.bytes.clone()], selector.name);
            let carried = carrying(&expansion, selector.bytes.clone());
            assert!(!carried.is_empty());
            assert_eq!(
                carried,
                naming(&expansion, &selector.name),
                "{}",
                selector.name
            );
        }
    }
}

#[test]
fn each_line_naming_the_op_or_an_argument_carries_its_bytes() {
    let expansion = macro_expander::expand(SCALE, MacroVersion::V0_22);
    // The trait's method: `fn scale(x: …, factor: …)`, its text after the attribute.
    let method = SCALE.find("fn scale").unwrap();
    for word in ["scale", "x", "factor"] {
        let at = method + SCALE[method..].find(word).unwrap();
        let carried = carrying(&expansion, at..at + word.len());
        assert_eq!(carried, naming(&expansion, word), "`{word}`");
    }
}

#[test]
fn a_line_the_macro_wrote_alone_carries_nothing() {
    let expansion = macro_expander::expand(SCALE, MacroVersion::V0_22);
    let lines = code_lines(&expansion);
    let panics: Vec<usize> = (0..lines.len())
        .filter(|line| lines[*line].trim() == "unimplemented!(")
        .collect();
    assert_eq!(panics.len(), 3);
    for line in panics {
        assert_eq!(expansion.line_sources[line], vec![]);
    }
}

#[test]
fn the_macro_writes_its_autodiff_code_with_tokens_of_its_own() {
    let expansion = macro_expander::expand(SCALE_WITH_FUSION, MacroVersion::V0_22);
    let autodiff = bytes_of(SCALE_WITH_FUSION, "Autodiff");
    assert!(!naming(&expansion, "Autodiff").is_empty());
    assert_eq!(carrying(&expansion, autodiff), Vec::<usize>::new());
}

#[test]
fn the_backend_arms_serve_their_selectors() {
    let expansion = macro_expander::expand(SCALE, MacroVersion::V0_22);
    let lines = code_lines(&expansion);
    let first_line = |prefix: &str| {
        lines
            .iter()
            .position(|line| line.trim_start().starts_with(prefix))
            .unwrap()
    };
    let served: Vec<(Region, usize, &str)> = expansion
        .served
        .iter()
        .map(
            |Served {
                 region,
                 lines,
                 selector,
             }| (*region, lines.start, selector.as_str()),
        )
        .collect();
    assert_eq!(
        served,
        [
            (
                Region::Arm,
                first_line("burn::backend::DispatchTensorKind::Cube(_) =>"),
                "Cube"
            ),
            (
                Region::Arm,
                first_line("burn::backend::DispatchTensorKind::Flex(_) =>"),
                "Flex"
            ),
            (
                Region::Arm,
                first_line("(0usize, __has_float_input) =>"),
                "Cube"
            ),
            (
                Region::Arm,
                first_line("(1usize, __has_float_input) =>"),
                "Flex"
            ),
        ]
    );
    // The `0usize` arm runs to the line before the `1usize` arm.
    assert_eq!(
        expansion.served[2].lines.end,
        expansion.served[3].lines.start
    );
}
