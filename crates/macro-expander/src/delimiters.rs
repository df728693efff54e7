//! Where a text's brackets fail to balance.
//!
//! proc-macro2's lexer says only that it could not cut the text into tokens, and where it gave
//! up (for an unclosed bracket: the end of the text). A person needs the bracket that was left
//! open. This scan is read only after the lexer has failed, to point at it; it steps over
//! comments, strings and character literals so that a bracket inside them does not count.

/// The first way the brackets fail to balance.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Imbalance {
    /// `delimiter`, at byte `open`, is still open at the end of the text.
    Unclosed { open: usize, delimiter: char },
    /// `delimiter`, at byte `close`, closes nothing.
    Unexpected { close: usize, delimiter: char },
    /// The bracket at byte `close` (`closed`) is not the partner of the one open, `opened` at
    /// byte `open`.
    Mismatched {
        open: usize,
        close: usize,
        opened: char,
        closed: char,
    },
}

/// The opening bracket `close` closes.
fn partner(close: char) -> char {
    match close {
        ')' => '(',
        ']' => '[',
        _ => '{',
    }
}

/// The first imbalance of `text`'s brackets outside comments and literals, if any.
pub fn imbalance(text: &str) -> Option<Imbalance> {
    let bytes = text.as_bytes();
    let mut open: Vec<(usize, char)> = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        match bytes[at] {
            b'/' if bytes.get(at + 1) == Some(&b'/') => {
                at = text[at..]
                    .find('\n')
                    .map_or(bytes.len(), |newline| at + newline);
            }
            b'/' if bytes.get(at + 1) == Some(&b'*') => at = block_comment_end(bytes, at),
            b'"' => at = string_end(bytes, at + 1),
            b'r' if raw_string_start(bytes, at).is_some() => {
                let (hashes, quote) = raw_string_start(bytes, at).unwrap_or_default();
                let closing = format!("\"{}", "#".repeat(hashes));
                at = text[quote + 1..]
                    .find(&closing)
                    .map_or(bytes.len(), |end| quote + 1 + end + closing.len());
            }
            b'\'' => at = char_literal_end(bytes, at),
            byte @ (b'(' | b'[' | b'{') => {
                open.push((at, byte as char));
                at += 1;
            }
            byte @ (b')' | b']' | b'}') => {
                let closed = byte as char;
                match open.pop() {
                    None => {
                        return Some(Imbalance::Unexpected {
                            close: at,
                            delimiter: closed,
                        });
                    }
                    Some((start, opened)) if opened != partner(closed) => {
                        return Some(Imbalance::Mismatched {
                            open: start,
                            close: at,
                            opened,
                            closed,
                        });
                    }
                    Some(_) => {}
                }
                at += 1;
            }
            _ => at += 1,
        }
    }
    open.pop()
        .map(|(open, delimiter)| Imbalance::Unclosed { open, delimiter })
}

/// The byte after a (nesting) block comment that starts at `start`.
fn block_comment_end(bytes: &[u8], start: usize) -> usize {
    let mut depth = 0usize;
    let mut at = start;
    while at + 1 < bytes.len() {
        match (bytes[at], bytes[at + 1]) {
            (b'/', b'*') => {
                depth += 1;
                at += 2;
            }
            (b'*', b'/') => {
                depth -= 1;
                at += 2;
                if depth == 0 {
                    return at;
                }
            }
            _ => at += 1,
        }
    }
    bytes.len()
}

/// The byte after the closing quote of a string whose contents start at `at`.
fn string_end(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() {
        match bytes[at] {
            b'\\' => at += 2,
            b'"' => return at + 1,
            _ => at += 1,
        }
    }
    bytes.len()
}

/// For `r"…"` or `r#"…"#` at `at` (not the end of an identifier such as `for`): the number of
/// `#`s and the byte of the opening quote.
fn raw_string_start(bytes: &[u8], at: usize) -> Option<(usize, usize)> {
    if at > 0 && (bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_') {
        return None;
    }
    let hashes = bytes[at + 1..]
        .iter()
        .take_while(|&&byte| byte == b'#')
        .count();
    (bytes.get(at + 1 + hashes) == Some(&b'"')).then_some((hashes, at + 1 + hashes))
}

/// The byte after a character literal at `at`, or after the quote of a lifetime (`'a`).
fn char_literal_end(bytes: &[u8], at: usize) -> usize {
    if bytes.get(at + 1) == Some(&b'\\') {
        // An escape: up to the closing quote.
        return bytes[at + 2..]
            .iter()
            .position(|&byte| byte == b'\'')
            .map_or(bytes.len(), |end| at + 2 + end + 1);
    }
    // One character (of up to 4 bytes) then a quote is a literal; anything else, a lifetime.
    let text = std::str::from_utf8(&bytes[at + 1..]).unwrap_or("");
    match text.chars().next() {
        Some(c) if text[c.len_utf8()..].starts_with('\'') => at + 1 + c.len_utf8() + 1,
        _ => at + 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unclosed_brace_is_the_one_left_open() {
        let text = "trait A {\n    fn f(x: T) -> T;\n";
        assert_eq!(
            imbalance(text),
            Some(Imbalance::Unclosed {
                open: 8,
                delimiter: '{'
            })
        );
    }

    #[test]
    fn brackets_in_comments_strings_and_chars_do_not_count() {
        let text = "// (\n/* [ /* { */ */ fn f() { let s = \"(\"; let c = '{'; let r = r#\"]\"#; }";
        assert_eq!(imbalance(text), None);
    }

    #[test]
    fn a_lifetime_is_not_a_character_literal() {
        assert_eq!(imbalance("fn f<'a>(x: &'a T) {}"), None);
    }

    #[test]
    fn a_wrong_closer_names_both() {
        assert_eq!(
            imbalance("fn f(x: [u8; 2)) {}"),
            Some(Imbalance::Mismatched {
                open: 8,
                close: 14,
                opened: '[',
                closed: ')'
            })
        );
    }

    #[test]
    fn a_stray_closer_is_unexpected() {
        assert_eq!(
            imbalance("fn f() {} }"),
            Some(Imbalance::Unexpected {
                close: 10,
                delimiter: '}'
            })
        );
    }
}
