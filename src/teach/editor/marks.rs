//! The typed text as the editor draws it under the text field: each line as highlighted pieces
//! (the page's own Rust highlighting), the pieces inside an error's bytes marked, and places as a
//! person reads them and as a text field selects them (UTF-16 code units).

use macro_expander::{MacroError, Place};

use crate::teach::routing::highlight::{TokenKind, escape_into, highlight};

/// A run of one line's text, of one kind, inside an error's bytes or not.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// How it is coloured.
    pub kind: TokenKind,
    /// Its text.
    pub text: String,
    /// Whether an error points at it.
    pub marked: bool,
    /// Whether the focused generated line carries it.
    pub source: bool,
}

/// Each line of `text` as pieces, with the bytes `errors` point at marked, and the bytes in
/// `sources` (what a focused generated line carries) too. A point of zero width (an error at the
/// end of the text) marks nothing here; the error list still gives its place.
pub fn marked_lines(
    text: &str,
    errors: &[MacroError],
    sources: &[std::ops::Range<usize>],
) -> Vec<Vec<Piece>> {
    let ranges: Vec<std::ops::Range<usize>> = errors
        .iter()
        .filter_map(|error| error.place.as_ref())
        .map(|place| place.bytes.clone())
        .collect();
    let is_marked = |at: usize| ranges.iter().any(|range| range.contains(&at));
    let is_source = |at: usize| sources.iter().any(|range| range.contains(&at));
    let mut line_start = 0;
    let mut lines = Vec::new();
    for (line, tokens) in text.split('\n').zip(highlight_all(text)) {
        let mut pieces: Vec<Piece> = Vec::new();
        let mut at = line_start;
        for token in tokens {
            for c in token.text.chars() {
                let (marked, source) = (is_marked(at), is_source(at));
                match pieces.last_mut() {
                    Some(last)
                        if last.kind == token.kind
                            && last.marked == marked
                            && last.source == source =>
                    {
                        last.text.push(c)
                    }
                    _ => pieces.push(Piece {
                        kind: token.kind,
                        text: c.to_string(),
                        marked,
                        source,
                    }),
                }
                at += c.len_utf8();
            }
        }
        line_start += line.len() + 1;
        lines.push(pieces);
    }
    lines
}

/// The highlighted tokens of every line of `text`, an empty line included where `text` ends in
/// a line break (the text field shows one there).
fn highlight_all(text: &str) -> Vec<Vec<crate::teach::routing::highlight::Token>> {
    let mut lines = highlight(text);
    let count = text.split('\n').count();
    lines.resize(count, Vec::new());
    lines
}

/// `lines` as the HTML of the highlighted copy under the text field: one text line per line, each
/// piece in its colour's `<span>`, the marked ones in a `<mark>`, every piece of text escaped.
pub fn to_html(lines: &[Vec<Piece>]) -> String {
    let mut html = String::new();
    for (index, pieces) in lines.iter().enumerate() {
        if index > 0 {
            html.push('\n');
        }
        for piece in pieces {
            if piece.source {
                html.push_str("<mark class=\"editor-source\">");
            }
            if piece.marked {
                html.push_str("<mark class=\"editor-mark\">");
            }
            html.push_str("<span class=\"");
            html.push_str(piece.kind.class());
            html.push_str("\">");
            escape_into(&mut html, &piece.text);
            html.push_str("</span>");
            if piece.marked {
                html.push_str("</mark>");
            }
            if piece.source {
                html.push_str("</mark>");
            }
        }
    }
    // A last empty line still takes its height (the field shows a caret there).
    html.push('\n');
    html
}

/// `line 3, column 21` (columns counted from 1, as rustc counts them).
pub fn place_label(place: &Place) -> String {
    format!("line {}, column {}", place.line, place.column + 1)
}

/// The byte of `text` at `offset` UTF-16 code units (a text field's selection), on a character
/// boundary.
pub fn byte_offset(text: &str, offset: u32) -> usize {
    let mut units = 0u32;
    for (at, c) in text.char_indices() {
        if units >= offset {
            return at;
        }
        units += c.len_utf16() as u32;
    }
    text.len()
}

/// The offset of byte `at` of `text` in UTF-16 code units, as a text field's selection counts.
pub fn utf16_offset(text: &str, at: usize) -> u32 {
    let at = at.min(text.len());
    let mut end = at;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text[..end].encode_utf16().count() as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use macro_expander::Origin;

    fn error_at(bytes: std::ops::Range<usize>) -> MacroError {
        MacroError {
            message: String::new(),
            place: Some(Place {
                bytes,
                line: 1,
                column: 0,
                end_line: 1,
                end_column: 0,
            }),
            origin: Origin::Macro,
        }
    }

    #[test]
    fn the_bytes_of_an_error_are_marked_and_nothing_else() {
        let text = "#[backend_extension(Cuda)]\ntrait A {}";
        let lines = marked_lines(text, &[error_at(20..24)], &[]);
        let marked: Vec<String> = lines
            .iter()
            .flatten()
            .filter(|piece| piece.marked)
            .map(|piece| piece.text.clone())
            .collect();
        assert_eq!(marked, ["Cuda"]);
        let rebuilt: Vec<String> = lines
            .iter()
            .map(|pieces| pieces.iter().map(|piece| piece.text.as_str()).collect())
            .collect();
        assert_eq!(rebuilt.join("\n"), text);
    }

    #[test]
    fn a_trailing_line_break_gives_an_empty_last_line() {
        assert_eq!(marked_lines("trait A {}\n", &[], &[]).len(), 2);
    }

    #[test]
    fn offsets_count_utf16_units() {
        assert_eq!(utf16_offset("é𝄞x", "é𝄞".len()), 3);
        assert_eq!(utf16_offset("ab", 10), 2);
        assert_eq!(byte_offset("é𝄞x", 3), "é𝄞".len());
        assert_eq!(byte_offset("é𝄞x", 1), "é".len());
        assert_eq!(byte_offset("ab", 10), 2);
    }

    #[test]
    fn the_bytes_a_focused_line_carries_are_marked_as_its_source() {
        let text = "fn scale(x: T)";
        let scale = std::ops::Range { start: 3, end: 8 };
        let lines = marked_lines(text, &[], &[scale]);
        let sources: Vec<&str> = lines
            .iter()
            .flatten()
            .filter(|piece| piece.source)
            .map(|piece| piece.text.as_str())
            .collect();
        assert_eq!(sources, ["scale"]);
        assert!(to_html(&lines).contains("<mark class=\"editor-source\"><span class=\"tok-"));
    }
}
