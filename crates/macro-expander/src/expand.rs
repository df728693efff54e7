//! Text in, burn's expansion or its errors out.
//!
//! The steps rustc takes before it hands a proc macro its tokens, each with its own kind of
//! error: the text is cut into tokens (proc-macro2's lexer), parsed as items (syn), and every
//! trait that carries `#[backend_extension(...)]` is given to the macro's `extension::expand`
//! with the attribute's arguments, as rustc gives them; every `#[derive(ExtensionType)]` item to
//! its `derive::expand`. Items without either are kept as they are.

use std::ops::Range;

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use quote::ToTokens;
use syn::{Attribute, Item, Meta};

use crate::delimiters::{self, Imbalance};
use crate::protocol::{
    Expansion, MAX_TEXT_BYTES, MacroError, MacroVersion, Origin, Place, SelectorPlace,
};

/// One version of burn's macro code: what burn's `lib.rs` calls, and its backend catalog.
pub(crate) struct MacroCode {
    pub version: &'static str,
    pub extension: fn(TokenStream, TokenStream) -> syn::Result<TokenStream>,
    pub derive: fn(TokenStream) -> syn::Result<TokenStream>,
    pub catalog_cfg: fn(&str) -> Option<&'static str>,
    pub catalog_backends: fn() -> Vec<&'static str>,
}

impl MacroCode {
    pub(crate) fn of(version: MacroVersion) -> MacroCode {
        match version {
            MacroVersion::V0_22 => MacroCode {
                version: burn_macro_v0_22::VERSION,
                extension: burn_macro_v0_22::expand_extension,
                derive: burn_macro_v0_22::expand_derive,
                catalog_cfg: burn_macro_v0_22::catalog_cfg,
                catalog_backends: burn_macro_v0_22::catalog_backends,
            },
            MacroVersion::V0_23 => MacroCode {
                version: burn_macro_v0_23::VERSION,
                extension: burn_macro_v0_23::expand_extension,
                derive: burn_macro_v0_23::expand_derive,
                catalog_cfg: burn_macro_v0_23::catalog_cfg,
                catalog_backends: burn_macro_v0_23::catalog_backends,
            },
        }
    }
}

/// How deep brackets may nest. syn parses nested brackets by recursion; far deeper than any
/// declaration, and far below where a browser's stack runs out.
pub const MAX_NESTING: usize = 100;

/// Where tokens are in the text just lexed.
trait PlaceOf {
    fn of(span: Span) -> Option<Place>;
    fn to(&self, other: &Place) -> Place;
    fn of_bytes(text: &str, bytes: Range<usize>) -> Place;
}

impl PlaceOf for Place {
    /// The place of `span` in the text just parsed, or `None` for a token the macro made up
    /// (proc-macro2's call site: rustc shows those at the attribute).
    fn of(span: Span) -> Option<Place> {
        span.source_text()?;
        let (start, end) = (span.start(), span.end());
        Some(Place {
            bytes: span.byte_range(),
            line: start.line,
            column: start.column,
            end_line: end.line,
            end_column: end.column,
        })
    }

    /// From the start of `self` to the end of `other`.
    fn to(&self, other: &Place) -> Place {
        Place {
            bytes: self.bytes.start..other.bytes.end,
            line: self.line,
            column: self.column,
            end_line: other.end_line,
            end_column: other.end_column,
        }
    }

    /// The place of bytes `bytes` of `text`.
    fn of_bytes(text: &str, bytes: Range<usize>) -> Place {
        let (line, column) = line_column(text, bytes.start);
        let (end_line, end_column) = line_column(text, bytes.end);
        Place {
            bytes,
            line,
            column,
            end_line,
            end_column,
        }
    }
}

/// The 1-based line and 0-based character column of byte `at` of `text`.
fn line_column(text: &str, at: usize) -> (usize, usize) {
    let before = &text[..at];
    let line_start = before.rfind('\n').map_or(0, |newline| newline + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count(),
    )
}

/// No code, only errors.
fn failed(errors: Vec<MacroError>) -> Expansion {
    Expansion {
        errors,
        ..Expansion::default()
    }
}

/// Expands every `#[backend_extension(...)]` trait and `#[derive(ExtensionType)]` item of `text`
/// with `version` of burn's macro code.
pub fn expand(text: &str, version: MacroVersion) -> Expansion {
    let code = MacroCode::of(version);
    let mut expansion = expand_text(text, &code);
    expansion.macro_version = code.version.to_owned();
    expansion.catalog = (code.catalog_backends)()
        .into_iter()
        .map(str::to_owned)
        .collect();
    // proc-macro2 keeps every text it lexed, for spans to point into: forget them, or a session
    // of edits grows without end. No span is read after this.
    proc_macro2::extra::invalidate_current_thread_spans();
    expansion
}

fn limit(message: String) -> Expansion {
    failed(vec![MacroError {
        message,
        place: None,
        origin: Origin::Limit,
    }])
}

fn expand_text(text: &str, code: &MacroCode) -> Expansion {
    if text.trim().is_empty() {
        return limit(
            "The text is empty: write a trait with `#[backend_extension(...)]` on it.".to_owned(),
        );
    }
    if text.len() > MAX_TEXT_BYTES {
        return limit(format!(
            "The text is {} bytes long; the expander reads at most {MAX_TEXT_BYTES}.",
            text.len()
        ));
    }
    let tokens: TokenStream = match text.parse() {
        Ok(tokens) => tokens,
        Err(error) => return failed(vec![lex_error(text, &error)]),
    };
    if let Some(span) = too_deep(&tokens) {
        return failed(vec![MacroError {
            message: format!(
                "Brackets nest more than {MAX_NESTING} deep here: the expander stops before parsing."
            ),
            place: Place::of(span),
            origin: Origin::Limit,
        }]);
    }
    let file: syn::File = match syn::parse2(tokens) {
        Ok(file) => file,
        Err(error) => return failed(errors_of(error, Origin::Syntax, None)),
    };
    let outline = crate::outline::outline(&file, is_backend_extension, code.catalog_cfg);

    let mut output = TokenStream::new();
    let mut errors = Vec::new();
    let mut expanded_any = false;
    let mut attributes = Vec::new();
    let mut selectors = Vec::new();
    for item in file.items {
        match item {
            Item::Trait(mut definition) => {
                let Some(index) = definition.attrs.iter().position(is_backend_extension) else {
                    definition.to_tokens(&mut output);
                    continue;
                };
                expanded_any = true;
                let attribute = definition.attrs.remove(index);
                let attribute_place = place_of_tokens(&attribute);
                attributes.extend(attribute_place.iter().map(|place| place.bytes.clone()));
                let arguments = match &attribute.meta {
                    Meta::List(list) => list.tokens.clone(),
                    Meta::Path(_) => TokenStream::new(),
                    Meta::NameValue(value) => {
                        errors.push(MacroError {
                            message: "expected `#[backend_extension(...)]`: the backends in \
                                      parentheses"
                                .to_owned(),
                            place: place_of_tokens(value),
                            origin: Origin::Syntax,
                        });
                        continue;
                    }
                };
                selectors.extend(selector_places(text, &arguments));
                match (code.extension)(arguments, definition.into_token_stream()) {
                    Ok(emitted) => {
                        errors.extend(compile_errors(&emitted, attribute_place.as_ref()));
                        output.extend(emitted);
                    }
                    Err(error) => {
                        errors.extend(errors_of(error, Origin::Macro, attribute_place.as_ref()))
                    }
                }
            }
            Item::Struct(_) | Item::Enum(_) if derives_extension_type(&item) => {
                expanded_any = true;
                let derive_place = place_of_tokens(&item);
                // rustc gives a derive the item, and keeps the item without that derive.
                without_extension_type_derive(item.clone()).to_tokens(&mut output);
                match (code.derive)(item.into_token_stream()) {
                    Ok(emitted) => {
                        errors.extend(compile_errors(&emitted, derive_place.as_ref()));
                        output.extend(emitted);
                    }
                    Err(error) => {
                        errors.extend(errors_of(error, Origin::Macro, derive_place.as_ref()))
                    }
                }
            }
            other => other.to_tokens(&mut output),
        }
    }
    if !expanded_any {
        return limit(
            "No trait carries `#[backend_extension(...)]`, and no type derives `ExtensionType`: \
             there is nothing for burn's macro to expand."
                .to_owned(),
        );
    }
    if output.is_empty() {
        return failed(errors);
    }
    let formatted = match syn::parse2::<syn::File>(output.clone()) {
        Ok(file) => prettyplease::unparse(&file),
        Err(_) => output.to_string(),
    };
    let sources = crate::sources::sources(text, &output, &formatted, &selectors);
    Expansion {
        line_sources: sources.lines,
        served: sources.served,
        attributes,
        selectors,
        code: Some(formatted),
        tokens: Some(output.to_string()),
        outline: errors.is_empty().then_some(outline),
        errors,
        ..Expansion::default()
    }
}

/// The name of each selector an attribute's arguments list (`Cube`, `Flex` of
/// `Flex: cfg(...)`), with its bytes in `text`; none when the arguments are not selectors.
fn selector_places(text: &str, arguments: &TokenStream) -> Vec<SelectorPlace> {
    crate::outline::selector_arguments(arguments.clone())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|argument| {
            Some(SelectorPlace {
                bytes: crate::sources::typed_bytes(argument.name.span(), text)?,
                name: argument.name.to_string(),
            })
        })
        .collect()
}

/// Whether `attribute` is burn's `#[backend_extension(...)]` (written bare or by its path, as in
/// `#[burn::backend::backend_extension(...)]`).
fn is_backend_extension(attribute: &Attribute) -> bool {
    attribute
        .path()
        .segments
        .last()
        .is_some_and(|segment| segment.ident == "backend_extension")
}

/// Whether a struct or enum lists `ExtensionType` in a `#[derive(...)]`.
fn derives_extension_type(item: &Item) -> bool {
    let attrs = match item {
        Item::Struct(item) => &item.attrs,
        Item::Enum(item) => &item.attrs,
        _ => return false,
    };
    attrs
        .iter()
        .filter_map(derived)
        .any(|paths| paths.iter().any(is_extension_type))
}

/// Whether `path` names the `ExtensionType` derive (`ExtensionType`, `burn::backend::ExtensionType`).
fn is_extension_type(path: &syn::Path) -> bool {
    path.segments
        .last()
        .is_some_and(|segment| segment.ident == "ExtensionType")
}

/// The paths a `#[derive(...)]` lists, or `None` for another attribute.
fn derived(attribute: &Attribute) -> Option<Vec<syn::Path>> {
    if !attribute.path().is_ident("derive") {
        return None;
    }
    attribute
        .parse_args_with(syn::punctuated::Punctuated::<syn::Path, syn::Token![,]>::parse_terminated)
        .ok()
        .map(|paths| paths.into_iter().collect())
}

/// `item` with `ExtensionType` taken out of its derives (a derive left empty goes too).
fn without_extension_type_derive(mut item: Item) -> Item {
    let attrs = match &mut item {
        Item::Struct(item) => &mut item.attrs,
        Item::Enum(item) => &mut item.attrs,
        _ => return item,
    };
    attrs.retain_mut(|attribute| {
        let Some(paths) = derived(attribute) else {
            return true;
        };
        let rest: Vec<&syn::Path> = paths
            .iter()
            .filter(|path| !is_extension_type(path))
            .collect();
        if rest.is_empty() {
            return false;
        }
        *attribute = syn::parse_quote!(#[derive(#(#rest),*)]);
        true
    });
    item
}

/// The place from the first to the last token of `tokens`.
fn place_of_tokens(tokens: &impl ToTokens) -> Option<Place> {
    let stream = tokens.to_token_stream();
    let mut trees = stream.into_iter();
    let first = Place::of(trees.next()?.span())?;
    let last = trees
        .last()
        .and_then(|tree| Place::of(tree.span()))
        .unwrap_or_else(|| first.clone());
    Some(first.to(&last))
}

/// Each message of a `syn::Error`, at its span; a span the macro made up is shown at `fallback`
/// (the attribute), as rustc shows it.
fn errors_of(error: syn::Error, origin: Origin, fallback: Option<&Place>) -> Vec<MacroError> {
    error
        .into_iter()
        .map(|error| {
            let span = error.span();
            MacroError {
                message: error.to_string(),
                place: Place::of(span).or_else(|| fallback.cloned()),
                origin,
            }
        })
        .collect()
}

/// The `compile_error!`s in the emitted tokens (burn's Fusion half reports its errors so,
/// beside the code it did generate): their messages, at the spans they carry.
fn compile_errors(emitted: &TokenStream, fallback: Option<&Place>) -> Vec<MacroError> {
    let mut found = Vec::new();
    let mut streams = vec![emitted.clone()];
    while let Some(stream) = streams.pop() {
        let trees: Vec<TokenTree> = stream.into_iter().collect();
        for (index, tree) in trees.iter().enumerate() {
            match tree {
                TokenTree::Ident(ident) if ident == "compile_error" => {
                    let (Some(TokenTree::Punct(bang)), Some(TokenTree::Group(group))) =
                        (trees.get(index + 1), trees.get(index + 2))
                    else {
                        continue;
                    };
                    if bang.as_char() != '!' {
                        continue;
                    }
                    let Ok(message) = syn::parse2::<syn::LitStr>(group.stream()) else {
                        continue;
                    };
                    // syn's `into_compile_error` puts the error's start on the path (`::core::`)
                    // and its end on the group.
                    let start = index
                        .checked_sub(3)
                        .and_then(|path| trees.get(path))
                        .filter(|tree| matches!(tree, TokenTree::Punct(punct) if punct.as_char() == ':'))
                        .map_or(ident.span(), TokenTree::span);
                    let place = match (Place::of(start), Place::of(group.span())) {
                        (Some(start), Some(end)) => Some(start.to(&end)),
                        (Some(start), None) => Some(start),
                        (None, Some(end)) => Some(end),
                        (None, None) => fallback.cloned(),
                    };
                    found.push(MacroError {
                        message: message.value(),
                        place,
                        origin: Origin::Macro,
                    });
                }
                TokenTree::Group(group) => streams.push(group.stream()),
                _ => {}
            }
        }
    }
    found.sort_by_key(|error| error.place.as_ref().map(|place| place.bytes.start));
    found
}

/// The span of the first group nested deeper than [`MAX_NESTING`], found without recursion.
fn too_deep(tokens: &TokenStream) -> Option<Span> {
    let mut stack = vec![(tokens.clone(), 0usize)];
    while let Some((stream, depth)) = stack.pop() {
        for tree in stream {
            if let TokenTree::Group(group) = tree {
                if depth + 1 > MAX_NESTING {
                    return Some(group.span_open());
                }
                // A `None`-delimited group is invisible in text; it never comes from lexing.
                let nested = if group.delimiter() == Delimiter::None {
                    depth
                } else {
                    depth + 1
                };
                stack.push((group.stream(), nested));
            }
        }
    }
    None
}

/// What went wrong when the text was cut into tokens: an unbalanced bracket, pointed at, or the
/// lexer's own message at the place it stopped.
fn lex_error(text: &str, error: &proc_macro2::LexError) -> MacroError {
    let (message, place) = match delimiters::imbalance(text) {
        Some(Imbalance::Unclosed { open, delimiter }) => (
            format!("this `{delimiter}` is never closed"),
            Some(Place::of_bytes(text, open..open + 1)),
        ),
        Some(Imbalance::Unexpected { close, delimiter }) => (
            format!("unexpected closing `{delimiter}`: nothing is open here"),
            Some(Place::of_bytes(text, close..close + 1)),
        ),
        Some(Imbalance::Mismatched {
            open,
            close,
            opened,
            closed,
        }) => (
            format!(
                "this `{closed}` does not close the `{opened}` on line {}",
                line_column(text, open).0
            ),
            Some(Place::of_bytes(text, close..close + 1)),
        ),
        None => (
            format!("{error}: the text is not Rust tokens from here"),
            Place::of(error.span()),
        ),
    };
    MacroError {
        message,
        place,
        origin: Origin::Tokens,
    }
}
