//! Rust syntax highlighting for the generated-code view: splits code into lines of classified
//! tokens, and writes them as the view's HTML, every piece of code text escaped.
//!
//! Hand-written on purpose: the code shown is rustfmt output of one macro expansion, and a
//! general highlighter (syntect, tree-sitter) would add megabytes of grammar to the page's wasm
//! for the handful of token classes needed here.

/// What a token is, for colouring.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenKind {
    /// `fn`, `match`, `let`, …
    Keyword,
    /// An identifier starting with an upper-case letter: types, traits, variants.
    Type,
    /// Any other identifier.
    Ident,
    /// `name!`.
    Macro,
    /// String and char literals.
    Str,
    /// Numeric literals.
    Number,
    /// `// …` comments.
    Comment,
    /// `'a`.
    Lifetime,
    /// Operators, punctuation, whitespace.
    Plain,
}

/// A run of text of one kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// Its kind.
    pub kind: TokenKind,
    /// Its text.
    pub text: String,
}

const KEYWORDS: &[&str] = &[
    "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "false",
    "fn", "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref",
    "return", "self", "Self", "static", "struct", "super", "trait", "true", "type", "unsafe",
    "use", "where", "while",
];

/// Highlights `code`, one token list per line (line breaks are not part of any token).
pub fn highlight(code: &str) -> Vec<Vec<Token>> {
    code.lines().map(highlight_line).collect()
}

fn highlight_line(line: &str) -> Vec<Token> {
    let chars: Vec<char> = line.chars().collect();
    let mut tokens: Vec<Token> = Vec::new();
    let mut push = |kind: TokenKind, text: String| match tokens.last_mut() {
        Some(last) if last.kind == kind && kind == TokenKind::Plain => last.text.push_str(&text),
        _ => tokens.push(Token { kind, text }),
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let start = i;
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            push(TokenKind::Comment, chars[i..].iter().collect());
            break;
        } else if c == '"' {
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
            push(TokenKind::Str, chars[start..i].iter().collect());
        } else if c == '\'' {
            // A char literal ('x', '\n') or a lifetime ('a).
            if chars.get(i + 2) == Some(&'\'') || chars.get(i + 1) == Some(&'\\') {
                i += 1;
                while i < chars.len() && chars[i] != '\'' {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                i = (i + 1).min(chars.len());
                push(TokenKind::Str, chars[start..i].iter().collect());
            } else {
                i += 1;
                while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                    i += 1;
                }
                push(TokenKind::Lifetime, chars[start..i].iter().collect());
            }
        } else if c.is_ascii_digit() {
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '.')
            {
                // `0..n`: stop before a range operator.
                if chars[i] == '.' && chars.get(i + 1) == Some(&'.') {
                    break;
                }
                i += 1;
            }
            push(TokenKind::Number, chars[start..i].iter().collect());
        } else if c.is_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let kind = if chars.get(i) == Some(&'!') && chars.get(i + 1) != Some(&'=') {
                i += 1;
                TokenKind::Macro
            } else if KEYWORDS.contains(&word.as_str()) {
                TokenKind::Keyword
            } else if word.starts_with(|c: char| c.is_uppercase()) {
                TokenKind::Type
            } else {
                TokenKind::Ident
            };
            let text = if kind == TokenKind::Macro {
                format!("{word}!")
            } else {
                word
            };
            push(kind, text);
        } else {
            i += 1;
            push(TokenKind::Plain, c.to_string());
        }
    }
    tokens
}

impl TokenKind {
    /// The CSS class that colours it.
    pub fn class(self) -> &'static str {
        match self {
            TokenKind::Keyword => "tok-keyword",
            TokenKind::Type => "tok-type",
            TokenKind::Ident => "tok-ident",
            TokenKind::Macro => "tok-macro",
            TokenKind::Str => "tok-str",
            TokenKind::Number => "tok-number",
            TokenKind::Comment => "tok-comment",
            TokenKind::Lifetime => "tok-lifetime",
            TokenKind::Plain => "tok-plain",
        }
    }
}

/// `lines` as HTML: per line a `<span class="line" data-line="{index}">` holding its number
/// (hidden from screen readers) and one `<span>` per token, ended by a line break.
///
/// One string for the page to set as the code element's inner HTML, rather than a node per
/// token created from wasm: a declaration's expansion is a few thousand spans, and building them
/// one call across the JavaScript boundary at a time took 50–130 ms per declaration change on
/// two cores; the browser parses the string in a few.
pub fn to_html(lines: &[Vec<Token>]) -> String {
    to_html_with(lines, |_| LineExtras::default())
}

/// What a caller adds to one line of [`to_html_with`]'s HTML.
#[derive(Debug, Default)]
pub struct LineExtras {
    /// A class beside `line`.
    pub class: Option<&'static str>,
    /// Attributes written into the line's tag, each with its leading space.
    pub attributes: &'static str,
    /// HTML after the line's tokens.
    pub after: String,
}

/// [`to_html`], with `extras(index)` added to line `index`.
pub fn to_html_with(lines: &[Vec<Token>], extras: impl Fn(usize) -> LineExtras) -> String {
    use std::fmt::Write as _;
    let mut html = String::new();
    for (index, tokens) in lines.iter().enumerate() {
        let LineExtras {
            class,
            attributes,
            after,
        } = extras(index);
        let class = class.map(|class| format!(" {class}")).unwrap_or_default();
        // Writing to a String cannot fail.
        let _ = write!(
            html,
            "<span class=\"line{class}\" data-line=\"{index}\"{attributes}><span class=\"line-number\" aria-hidden=\"true\">{}</span>",
            index + 1
        );
        for token in tokens {
            let _ = write!(html, "<span class=\"{}\">", token.kind.class());
            escape_into(&mut html, &token.text);
            html.push_str("</span>");
        }
        html.push_str(&after);
        html.push_str("\n</span>");
    }
    html
}

/// A diff of two highlighted sources as HTML, in the form of [`to_html`]: a line of the shown
/// source (`new`) keeps its `data-line` index and number, so the arm a run went through is marked
/// as in the plain view; an added line is also classed `line-added`, and a line only in the
/// compared source (`old`) is classed `line-removed`, carries no index, and is numbered with a
/// minus sign. Screen readers hear "added" and "removed" before such lines.
pub fn diff_to_html(
    diff: &[crate::teach::routing::diff::DiffLine],
    new: &[Vec<Token>],
    old: &[Vec<Token>],
) -> String {
    use crate::teach::routing::diff::Change;
    use std::fmt::Write as _;
    let mut html = String::new();
    for line in diff {
        let (tokens, class) = match (line.change, line.line, line.old_line) {
            (Change::Removed, _, Some(old_index)) => (old.get(old_index), "line line-removed"),
            (Change::Added, Some(index), _) => (new.get(index), "line line-added"),
            (_, Some(index), _) => (new.get(index), "line"),
            _ => (None, "line"),
        };
        match line.line {
            Some(index) if line.change != Change::Removed => {
                let _ = write!(
                    html,
                    "<span class=\"{class}\" data-line=\"{index}\"><span class=\"line-number\" aria-hidden=\"true\">{}</span>",
                    index + 1
                );
            }
            _ => {
                let _ = write!(
                    html,
                    "<span class=\"{class}\"><span class=\"line-number\" aria-hidden=\"true\">−</span>"
                );
            }
        }
        match line.change {
            Change::Added => html.push_str("<span class=\"visually-hidden\">added </span>"),
            Change::Removed => html.push_str("<span class=\"visually-hidden\">removed </span>"),
            Change::Same => {}
        }
        for token in tokens.into_iter().flatten() {
            let _ = write!(html, "<span class=\"{}\">", token.kind.class());
            escape_into(&mut html, &token.text);
            html.push_str("</span>");
        }
        html.push_str(
            "
</span>",
        );
    }
    html
}

/// Appends `text` with the characters that mean something in HTML escaped.
pub fn escape_into(html: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => html.push_str("&amp;"),
            '<' => html.push_str("&lt;"),
            '>' => html.push_str("&gt;"),
            '"' => html.push_str("&quot;"),
            c => html.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{TokenKind::*, *};

    fn kinds(line: &str) -> Vec<(TokenKind, String)> {
        highlight_line(line)
            .into_iter()
            .map(|token| (token.kind, token.text))
            .collect()
    }

    #[test]
    fn classifies_the_tokens_of_a_generated_arm() {
        assert_eq!(
            kinds(r#"_ => unimplemented!("no arm for `{}`", "scale"),"#),
            vec![
                (Ident, "_".into()),
                (Plain, " => ".into()),
                (Macro, "unimplemented!".into()),
                (Plain, "(".into()),
                (Str, r#""no arm for `{}`""#.into()),
                (Plain, ", ".into()),
                (Str, r#""scale""#.into()),
                (Plain, "),".into()),
            ]
        );
        assert_eq!(
            kinds("let x: Vec<'a> = 0..10; // done"),
            vec![
                (Keyword, "let".into()),
                (Plain, " ".into()),
                (Ident, "x".into()),
                (Plain, ": ".into()),
                (Type, "Vec".into()),
                (Plain, "<".into()),
                (Lifetime, "'a".into()),
                (Plain, "> = ".into()),
                (Number, "0".into()),
                (Plain, "..".into()),
                (Number, "10".into()),
                (Plain, "; ".into()),
                (Comment, "// done".into()),
            ]
        );
    }

    #[test]
    fn text_survives_highlighting_unchanged() {
        let code = "fn f() {\n    x != 'c' && y == \"\\\"\";\n}\n";
        let rebuilt: Vec<String> = highlight(code)
            .into_iter()
            .map(|line| line.into_iter().map(|token| token.text).collect())
            .collect();
        assert_eq!(rebuilt.join("\n") + "\n", code);
    }

    #[test]
    fn writes_lines_as_escaped_html() {
        assert_eq!(
            to_html(&highlight("impl<B> X for Y {\n    a && \"<b>\"\n}")),
            concat!(
                r#"<span class="line" data-line="0"><span class="line-number" aria-hidden="true">1</span>"#,
                r#"<span class="tok-keyword">impl</span><span class="tok-plain">&lt;</span>"#,
                r#"<span class="tok-type">B</span><span class="tok-plain">&gt; </span>"#,
                r#"<span class="tok-type">X</span><span class="tok-plain"> </span>"#,
                r#"<span class="tok-keyword">for</span><span class="tok-plain"> </span>"#,
                r#"<span class="tok-type">Y</span><span class="tok-plain"> {</span>"#,
                "\n</span>",
                r#"<span class="line" data-line="1"><span class="line-number" aria-hidden="true">2</span>"#,
                r#"<span class="tok-plain">    </span><span class="tok-ident">a</span>"#,
                r#"<span class="tok-plain"> &amp;&amp; </span><span class="tok-str">&quot;&lt;b&gt;&quot;</span>"#,
                "\n</span>",
                r#"<span class="line" data-line="2"><span class="line-number" aria-hidden="true">3</span>"#,
                r#"<span class="tok-plain">}</span>"#,
                "\n</span>",
            )
        );
    }
}
