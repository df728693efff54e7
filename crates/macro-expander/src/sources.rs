//! Where each line of the formatted expansion comes from.
//!
//! The macro gives each token it emits a span: the span of the typed token it copied (an op's
//! name, an argument, a selector), or the call site for a token it wrote itself. prettyplease
//! prints the tokens again without their spans, so the formatted text is lexed once more and
//! its tokens are matched, in order, with the emitted ones: each formatted line then carries
//! the typed bytes of the emitted tokens printed on it.

use std::ops::Range;

use proc_macro2::{Delimiter, Spacing, Span, TokenStream, TokenTree};

use crate::protocol::{Region, SelectorPlace, Served};

/// What the formatted expansion's lines carry of the typed text.
pub(crate) struct Sources {
    /// Per line, the typed bytes its tokens carry, merged and in order.
    pub lines: Vec<Vec<Range<usize>>>,
    /// The impls and arms that serve one selector.
    pub served: Vec<Served>,
}

/// One token as printed, with its span (into the typed text for an emitted token, into the
/// formatted text for one lexed again).
struct Printed {
    text: String,
    span: Span,
}

/// How far the matching looks ahead when the two token runs differ: prettyplease adds or drops
/// a few tokens (trailing commas, a `None`-delimited group's parentheses, a doc comment's form).
const LOOKAHEAD: usize = 16;

/// The typed bytes a span points at, when it points into `text` (a token the macro made up, or
/// one it lexed itself from a string of its own, points elsewhere).
pub(crate) fn typed_bytes(span: Span, text: &str) -> Option<Range<usize>> {
    let source = span.source_text()?;
    let bytes = span.byte_range();
    (text.get(bytes.clone()) == Some(source.as_str()) && !bytes.is_empty()).then_some(bytes)
}

/// `stream`'s tokens in print order, a group's delimiters as tokens of their own, without
/// recursion (a stream nests as deep as its text).
fn flatten(stream: TokenStream) -> Vec<Printed> {
    let mut printed = Vec::new();
    let mut stack: Vec<(std::vec::IntoIter<TokenTree>, Option<Printed>)> =
        vec![(stream.into_iter().collect::<Vec<_>>().into_iter(), None)];
    while let Some((trees, _)) = stack.last_mut() {
        let Some(tree) = trees.next() else {
            if let Some((_, Some(close))) = stack.pop() {
                printed.push(close);
            }
            continue;
        };
        match tree {
            TokenTree::Group(group) => {
                let (open, close) = match group.delimiter() {
                    Delimiter::Parenthesis => ("(", ")"),
                    Delimiter::Brace => ("{", "}"),
                    Delimiter::Bracket => ("[", "]"),
                    Delimiter::None => ("", ""),
                };
                let close = (!close.is_empty()).then(|| Printed {
                    text: close.to_owned(),
                    span: group.span_close(),
                });
                if !open.is_empty() {
                    printed.push(Printed {
                        text: open.to_owned(),
                        span: group.span_open(),
                    });
                }
                stack.push((
                    group.stream().into_iter().collect::<Vec<_>>().into_iter(),
                    close,
                ));
            }
            TokenTree::Ident(ident) => printed.push(Printed {
                text: ident.to_string(),
                span: ident.span(),
            }),
            TokenTree::Punct(punct) => printed.push(Printed {
                text: punct.as_char().to_string(),
                span: punct.span(),
            }),
            TokenTree::Literal(literal) => printed.push(Printed {
                text: literal.to_string(),
                span: literal.span(),
            }),
        }
    }
    printed
}

/// For each line of `formatted` (prettyplease's print of `emitted`), the bytes of `text` the
/// emitted tokens printed on it carry; and the impls and arms that serve one of `selectors`.
pub(crate) fn sources(
    text: &str,
    emitted: &TokenStream,
    formatted: &str,
    selectors: &[SelectorPlace],
) -> Sources {
    let Ok(reprinted) = formatted.parse::<TokenStream>() else {
        return Sources {
            lines: vec![Vec::new(); formatted.lines().count()],
            served: Vec::new(),
        };
    };
    let lines = line_sources(text, emitted, formatted, &reprinted);
    let mut served = Vec::new();
    serving(reprinted, &lines, selectors, None, &mut served);
    Sources { lines, served }
}

/// The 0-based line a span starts on, and the line after the one it ends on.
fn lines_of(first: Span, last: Span) -> Range<usize> {
    first.start().line.saturating_sub(1)..last.end().line
}

/// Whether `trees[at]` starts a `=>`.
fn is_fat_arrow(trees: &[TokenTree], at: usize) -> bool {
    matches!(
        (trees.get(at), trees.get(at + 1)),
        (Some(TokenTree::Punct(eq)), Some(TokenTree::Punct(gt)))
            if eq.as_char() == '=' && eq.spacing() == Spacing::Joint && gt.as_char() == '>'
    )
}

fn is_comma(tree: &TokenTree) -> bool {
    matches!(tree, TokenTree::Punct(punct) if punct.as_char() == ',')
}

/// Each impl (`impl` to its block) and match arm (pattern to body) among `trees`, as ranges of
/// their indices.
fn regions(trees: &[TokenTree]) -> Vec<(Region, Range<usize>)> {
    let mut found = Vec::new();
    // An impl: `impl`, up to the next block at this level.
    for (at, tree) in trees.iter().enumerate() {
        if matches!(tree, TokenTree::Ident(ident) if ident == "impl")
            && let Some(block) = trees[at..].iter().position(
                |tree| matches!(tree, TokenTree::Group(group) if group.delimiter() == Delimiter::Brace),
            )
        {
            found.push((Region::Impl, at..at + block + 1));
        }
    }
    // Arms: a stream with a `=>` at its top level is a match's body.
    if !(0..trees.len()).any(|at| is_fat_arrow(trees, at)) {
        return found;
    }
    let mut start = 0;
    while start < trees.len() {
        let Some(arrow) = (start..trees.len()).find(|at| is_fat_arrow(trees, *at)) else {
            break;
        };
        let body = arrow + 2;
        let end = match trees.get(body) {
            Some(TokenTree::Group(group)) if group.delimiter() == Delimiter::Brace => body + 1,
            _ => (body..trees.len())
                .find(|at| is_comma(&trees[*at]))
                .unwrap_or(trees.len()),
        };
        if end > start {
            found.push((Region::Arm, start..end));
        }
        start = end;
        while trees.get(start).is_some_and(is_comma) {
            start += 1;
        }
    }
    found
}

/// The one selector whose name the lines `lines` carry, if exactly one is.
fn served_selector<'a>(
    carried: &[Vec<Range<usize>>],
    lines: Range<usize>,
    selectors: &'a [SelectorPlace],
) -> Option<&'a str> {
    let mut names: Vec<&str> = Vec::new();
    for selector in selectors {
        let carries = carried
            .get(lines.clone())
            .unwrap_or_default()
            .iter()
            .flatten()
            .any(|bytes| bytes.start < selector.bytes.end && selector.bytes.start < bytes.end);
        if carries && !names.contains(&selector.name.as_str()) {
            names.push(&selector.name);
        }
    }
    match names.as_slice() {
        [name] => Some(name),
        _ => None,
    }
}

/// The impls and arms of `stream` (the formatted text, lexed again) that serve one selector,
/// nested ones inside serving a different one than `serves` (what the region around serves).
fn serving(
    stream: TokenStream,
    carried: &[Vec<Range<usize>>],
    selectors: &[SelectorPlace],
    serves: Option<&str>,
    found: &mut Vec<Served>,
) {
    let trees: Vec<TokenTree> = stream.into_iter().collect();
    let mut around: Vec<Option<&str>> = vec![serves; trees.len()];
    for (region, indices) in regions(&trees) {
        let lines = lines_of(trees[indices.start].span(), trees[indices.end - 1].span());
        let Some(selector) = served_selector(carried, lines.clone(), selectors) else {
            continue;
        };
        if serves != Some(selector) {
            // In the order of their first lines (a region is found before those inside it).
            let at = found.partition_point(|before| before.lines.start <= lines.start);
            found.insert(
                at,
                Served {
                    region,
                    lines,
                    selector: selector.to_owned(),
                },
            );
        }
        for index in indices {
            around[index] = Some(selector);
        }
    }
    for (tree, serves) in trees.into_iter().zip(around) {
        if let TokenTree::Group(group) = tree {
            serving(group.stream(), carried, selectors, serves, found);
        }
    }
}

/// For each line of `formatted`, the bytes of `text` the emitted tokens printed on it carry,
/// merged and in order; empty for a line the macro wrote alone.
fn line_sources(
    text: &str,
    emitted: &TokenStream,
    formatted: &str,
    reprinted: &TokenStream,
) -> Vec<Vec<Range<usize>>> {
    let mut lines = vec![Vec::new(); formatted.lines().count()];
    let emitted = flatten(emitted.clone());
    let reprinted = flatten(reprinted.clone());
    let (mut e, mut r) = (0, 0);
    while e < emitted.len() && r < reprinted.len() {
        if emitted[e].text == reprinted[r].text {
            let line = reprinted[r].span.start().line.wrapping_sub(1);
            if let (Some(bytes), Some(line)) =
                (typed_bytes(emitted[e].span, text), lines.get_mut(line))
            {
                // Kept in order and merged as they come: a line carries a few pieces.
                let at = line.partition_point(|kept: &Range<usize>| kept.end < bytes.start);
                match line.get_mut(at) {
                    Some(kept) if kept.start <= bytes.end => {
                        kept.start = kept.start.min(bytes.start);
                        kept.end = kept.end.max(bytes.end);
                    }
                    _ => line.insert(at, bytes),
                }
            }
            e += 1;
            r += 1;
            continue;
        }
        // The nearest pair of equal tokens ahead, by the fewest tokens skipped on both sides.
        let resync = (1..=2 * LOOKAHEAD).find_map(|skipped| {
            (0..=skipped.min(LOOKAHEAD)).find_map(|on_emitted| {
                let on_reprinted = skipped - on_emitted;
                let (next_e, next_r) = (e + on_emitted, r + on_reprinted);
                (on_reprinted <= LOOKAHEAD
                    && next_e < emitted.len()
                    && next_r < reprinted.len()
                    && emitted[next_e].text == reprinted[next_r].text)
                    .then_some((next_e, next_r))
            })
        });
        match resync {
            Some((next_e, next_r)) => (e, r) = (next_e, next_r),
            None => (e, r) = (e + 1, r + 1),
        }
    }
    lines
}
