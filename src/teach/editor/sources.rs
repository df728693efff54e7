//! Where the generated code's lines come from: which of them carry the text a person selected
//! in the editor, what each line carries of the typed text, and the impls and arms that serve
//! one selector. Every word is read from the expander's answer (the spans burn's macro gave its
//! tokens, `macro_expander::Expansion::line_sources`), never from the code's text.

use std::ops::Range;

use macro_expander::{Expansion, Region, Served};

use crate::teach::routing::highlight::{self, LineExtras, Token};
use crate::teach::words::explain::and_list;

fn meets(a: &Range<usize>, b: &Range<usize>) -> bool {
    a.start < b.end && b.start < a.end
}

/// The generated lines (counted from 0) that carry some of `selected`, the typed bytes.
pub fn carrying_lines(expansion: &Expansion, selected: &Range<usize>) -> Vec<usize> {
    expansion
        .line_sources
        .iter()
        .enumerate()
        .filter(|(_, sources)| sources.iter().any(|source| meets(source, selected)))
        .map(|(line, _)| line)
        .collect()
}

/// `text` as one short quoted line: runs of white space as one space, long text cut.
fn quoted(text: &str) -> String {
    const MOST: usize = 40;
    let words: Vec<&str> = text.split_whitespace().collect();
    let joined = words.join(" ");
    match joined.char_indices().nth(MOST) {
        Some((cut, _)) => format!("`{}…`", &joined[..cut]),
        None => format!("`{joined}`"),
    }
}

/// The 1-based line of byte `at` of `text`.
fn line_of(text: &str, at: usize) -> usize {
    text.as_bytes()[..at.min(text.len())]
        .iter()
        .filter(|byte| **byte == b'\n')
        .count()
        + 1
}

/// What the page says of a selection of the typed text: how many generated lines carry it
/// (`carrying`, as [`carrying_lines`] found them).
pub fn selection_words(
    expansion: &Expansion,
    text: &str,
    selected: &Range<usize>,
    carrying: &[usize],
) -> String {
    let Some(chosen) = text.get(selected.clone()) else {
        return String::new();
    };
    let lines = carrying.len();
    let total = expansion.line_sources.len();
    match lines {
        0 => format!(
            "No generated line carries {}: the macro copied none of its tokens into the code it generated.",
            quoted(chosen)
        ),
        1 => format!(
            "1 of the {total} generated lines carries {} (marked).",
            quoted(chosen)
        ),
        _ => format!(
            "{lines} of the {total} generated lines carry {} (marked).",
            quoted(chosen)
        ),
    }
}

/// The impl or arm that starts on `line` and serves one selector, if any.
pub fn served_from(expansion: &Expansion, line: usize) -> Option<&Served> {
    expansion
        .served
        .iter()
        .find(|served| served.lines.start == line)
}

/// The label of an impl or arm that serves one selector: "arm for `Cube`".
pub fn served_label(served: &Served) -> String {
    let region = match served.region {
        Region::Impl => "impl",
        Region::Arm => "arm",
    };
    format!("{region} for `{}`", served.selector)
}

/// What the page says when generated line `line` (from 0) is focused: the typed text it
/// carries and where that text is, or that the macro wrote it alone; and the innermost impl or
/// arm around it that serves one selector.
pub fn line_origin(expansion: &Expansion, text: &str, line: usize) -> String {
    let Some(sources) = expansion.line_sources.get(line) else {
        return String::new();
    };
    let mut said = if sources.is_empty() {
        format!(
            "Line {}: written by the macro; no token on it comes from your text.",
            line + 1
        )
    } else {
        let in_attribute = |bytes: &Range<usize>| {
            expansion
                .attributes
                .iter()
                .any(|attribute| attribute.start <= bytes.start && bytes.end <= attribute.end)
        };
        let mut parts = Vec::new();
        let from_attribute: Vec<String> = sources
            .iter()
            .filter(|bytes| in_attribute(bytes))
            .filter_map(|bytes| text.get(bytes.clone()).map(quoted))
            .collect();
        if !from_attribute.is_empty() {
            parts.push(format!("{} in your attribute", and_list(&from_attribute)));
        }
        // The rest, grouped by the typed line it is on.
        let mut by_line: Vec<(usize, Vec<String>)> = Vec::new();
        for bytes in sources.iter().filter(|bytes| !in_attribute(bytes)) {
            let Some(piece) = text.get(bytes.clone()) else {
                continue;
            };
            let typed_line = line_of(text, bytes.start);
            match by_line.last_mut() {
                Some((last, pieces)) if *last == typed_line => pieces.push(quoted(piece)),
                _ => by_line.push((typed_line, vec![quoted(piece)])),
            }
        }
        for (typed_line, pieces) in by_line {
            parts.push(format!("{} on line {typed_line}", and_list(&pieces)));
        }
        format!("Line {}: from {}.", line + 1, and_list(&parts))
    };
    let around = expansion
        .served
        .iter()
        .filter(|served| served.lines.contains(&line))
        .min_by_key(|served| served.lines.len());
    if let Some(served) = around {
        said.push_str(&format!(
            " It is in the {} (of your selectors, its lines carry only `{}`).",
            served_label(served),
            served.selector
        ));
    }
    said
}

/// The generated code as the editor's code box draws it: highlighted lines as
/// [`highlight::to_html`] writes them, each focusable (`tabindex="-1"`: the box is one stop of
/// the Tab order, its arrow keys move between lines), the lines in `carrying` classed
/// `line-carries`, and the first line of an impl or arm that serves one selector labelled.
pub fn code_html(lines: &[Vec<Token>], expansion: &Expansion, carrying: &[usize]) -> String {
    highlight::to_html_with(lines, |index| LineExtras {
        class: carrying
            .binary_search(&index)
            .is_ok()
            .then_some("line-carries"),
        attributes: " tabindex=\"-1\"",
        after: served_from(expansion, index)
            .map(|served| {
                let mut label = String::from("<span class=\"code-serves\">");
                highlight::escape_into(&mut label, &served_label(served));
                label.push_str("</span>");
                label
            })
            .unwrap_or_default(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    // `#[backend_extension(Cube)]\ntrait A {\n fn a(x: T) -> T;\n}`, and a made-up answer:
    // line 0 carries `Cube`, line 1 `a` and `x`, line 2 nothing; lines 0..2 are Cube's arm.
    const TEXT: &str = "#[backend_extension(Cube)]\ntrait A {\n fn a(x: T) -> T;\n}";

    fn answer() -> Expansion {
        let cube = TEXT.find("Cube").unwrap();
        let a = TEXT.find("fn a").unwrap() + 3;
        let x = TEXT.find("x:").unwrap();
        Expansion {
            code: Some("one\ntwo\nthree".to_owned()),
            line_sources: vec![vec![cube..cube + 4], vec![a..a + 1, x..x + 1], vec![]],
            attributes: vec![TEXT.find("\ntrait").map(|end| 0..end).unwrap()],
            served: vec![Served {
                region: Region::Arm,
                lines: 0..2,
                selector: "Cube".to_owned(),
            }],
            ..Expansion::default()
        }
    }

    #[test]
    fn a_selection_marks_the_lines_that_carry_it() {
        let expansion = answer();
        let cube = TEXT.find("Cube").unwrap();
        assert_eq!(carrying_lines(&expansion, &(cube..cube + 2)), [0]);
        let method = TEXT.find("fn a(x").unwrap();
        assert_eq!(carrying_lines(&expansion, &(method..method + 6)), [1]);
        let words = |bytes: std::ops::Range<usize>| {
            selection_words(
                &expansion,
                TEXT,
                &bytes,
                &carrying_lines(&expansion, &bytes),
            )
        };
        assert_eq!(
            words(cube..cube + 4),
            "1 of the 3 generated lines carries `Cube` (marked)."
        );
        assert_eq!(
            words(0..2),
            "No generated line carries `#[`: the macro copied none of its tokens into the code it generated."
        );
    }

    #[test]
    fn a_focused_line_says_where_it_came_from() {
        let expansion = answer();
        assert_eq!(
            line_origin(&expansion, TEXT, 0),
            "Line 1: from `Cube` in your attribute. It is in the arm for `Cube` (of your selectors, its lines carry only `Cube`)."
        );
        assert_eq!(
            line_origin(&expansion, TEXT, 1),
            "Line 2: from `a` and `x` on line 3. It is in the arm for `Cube` (of your selectors, its lines carry only `Cube`)."
        );
        assert_eq!(
            line_origin(&expansion, TEXT, 2),
            "Line 3: written by the macro; no token on it comes from your text."
        );
        assert_eq!(line_origin(&expansion, TEXT, 3), "");
    }

    #[test]
    fn the_code_box_marks_carrying_lines_and_labels_served_arms() {
        let expansion = answer();
        let lines = highlight::highlight(expansion.code.as_deref().unwrap());
        let html = code_html(&lines, &expansion, &[1]);
        assert_eq!(html.matches("tabindex=\"-1\"").count(), 3);
        assert_eq!(html.matches("line-carries").count(), 1);
        assert!(html.contains("class=\"line line-carries\" data-line=\"1\" tabindex=\"-1\""));
        assert_eq!(
            html.matches("<span class=\"code-serves\">arm for `Cube`</span>")
                .count(),
            1
        );
    }
}
