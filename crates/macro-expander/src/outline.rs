//! What a project that implements an accepted declaration needs to know of it, read from the
//! parsed text: each `#[backend_extension(...)]` trait's name, its selectors as written (with the
//! backend catalog's own cfg for each concrete backend), and its methods, each with a `todo!()`
//! stub an impl can start from.
//!
//! The selectors are read with a parser of the attribute's shape (`Name` or `Name: meta`, comma
//! separated), the shape burn's macro reads; what they mean for the routing stays the macro's.

use proc_macro2::TokenStream;
use quote::ToTokens;
use syn::parse::{Parse, ParseStream, Parser};
use syn::punctuated::Punctuated;
use syn::{FnArg, Ident, Item, Meta, Token, TraitItem, UseTree};

use crate::protocol::{Method, Outline, Selector, TraitOutline};

/// One selector: `Name` or `Name: meta`.
pub(crate) struct SelectorArgument {
    pub name: Ident,
    pub meta: Option<Meta>,
}

/// The selectors an attribute's arguments list, as burn's macro reads them (comma-separated).
pub(crate) fn selector_arguments(arguments: TokenStream) -> syn::Result<Vec<SelectorArgument>> {
    Punctuated::<SelectorArgument, Token![,]>::parse_terminated
        .parse2(arguments)
        .map(|arguments| arguments.into_iter().collect())
}

impl Parse for SelectorArgument {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let name = input.parse()?;
        let meta = if input.peek(Token![:]) {
            input.parse::<Token![:]>()?;
            Some(input.parse()?)
        } else {
            None
        };
        Ok(Self { name, meta })
    }
}

/// The outline of `file`, whose `#[backend_extension]` traits the macro accepted; `catalog_cfg`
/// is that macro version's backend catalog.
pub fn outline(
    file: &syn::File,
    is_backend_extension: impl Fn(&syn::Attribute) -> bool,
    catalog_cfg: fn(&str) -> Option<&'static str>,
) -> Outline {
    let mut outline = Outline::default();
    for item in &file.items {
        if let Some(name) = defined_name(item) {
            outline.defined.push(name);
        }
        match item {
            Item::Use(item) => imported(&item.tree, &mut outline.imported),
            Item::Trait(definition) => {
                let Some(attribute) = definition
                    .attrs
                    .iter()
                    .find(|attribute| is_backend_extension(attribute))
                else {
                    continue;
                };
                let selectors = match &attribute.meta {
                    Meta::List(list) => selector_arguments(list.tokens.clone())
                        .map(|arguments| {
                            arguments
                                .into_iter()
                                .map(|argument| selector(argument, catalog_cfg))
                                .collect()
                        })
                        .unwrap_or_default(),
                    _ => Vec::new(),
                };
                let methods = definition
                    .items
                    .iter()
                    .filter_map(|item| match item {
                        TraitItem::Fn(method) => Some(method_outline(method)),
                        _ => None,
                    })
                    .collect();
                outline.traits.push(TraitOutline {
                    name: definition.ident.to_string(),
                    selectors,
                    methods,
                });
            }
            _ => {}
        }
    }
    outline
}

fn selector(argument: SelectorArgument, catalog_cfg: fn(&str) -> Option<&'static str>) -> Selector {
    let name = argument.name.to_string();
    let mut features = Vec::new();
    if let Some(meta) = &argument.meta {
        tested_features(meta, &mut features);
    }
    Selector {
        catalog_cfg: catalog_cfg(&name).map(str::to_owned),
        cfg: argument
            .meta
            .as_ref()
            .map(|meta| meta.to_token_stream().to_string()),
        features,
        name,
    }
}

/// Every `feature = "…"` inside `meta` (through `all(…)`, `any(…)`, `not(…)`, `cfg(…)`).
fn tested_features(meta: &Meta, features: &mut Vec<String>) {
    match meta {
        Meta::NameValue(pair) if pair.path.is_ident("feature") => {
            if let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(name),
                ..
            }) = &pair.value
                && !features.contains(&name.value())
            {
                features.push(name.value());
            }
        }
        Meta::List(list) => {
            if let Ok(nested) =
                list.parse_args_with(Punctuated::<Meta, Token![,]>::parse_terminated)
            {
                for meta in &nested {
                    tested_features(meta, features);
                }
            }
        }
        _ => {}
    }
}

fn method_outline(method: &syn::TraitItemFn) -> Method {
    let mut signature = method.sig.clone();
    // Attributes on arguments (`#[extension_type]`) are the macro's to read; an impl has none.
    for input in &mut signature.inputs {
        match input {
            FnArg::Typed(typed) => typed.attrs.clear(),
            FnArg::Receiver(receiver) => receiver.attrs.clear(),
        }
    }
    let stub: syn::File = syn::parse_quote! {
        #signature {
            todo!()
        }
    };
    Method {
        name: method.sig.ident.to_string(),
        signature: method.sig.to_token_stream().to_string(),
        stub: prettyplease::unparse(&stub).trim_end().to_owned(),
        has_default: method.default.is_some(),
    }
}

/// The name a top-level item defines, if it defines one.
fn defined_name(item: &Item) -> Option<String> {
    let ident = match item {
        Item::Const(item) => &item.ident,
        Item::Enum(item) => &item.ident,
        Item::Fn(item) => &item.sig.ident,
        Item::Macro(item) => item.ident.as_ref()?,
        Item::Mod(item) => &item.ident,
        Item::Static(item) => &item.ident,
        Item::Struct(item) => &item.ident,
        Item::Trait(item) => &item.ident,
        Item::TraitAlias(item) => &item.ident,
        Item::Type(item) => &item.ident,
        Item::Union(item) => &item.ident,
        _ => return None,
    };
    Some(ident.to_string())
}

/// The names a `use` tree brings in (a glob brings in none by name).
fn imported(tree: &UseTree, names: &mut Vec<String>) {
    match tree {
        UseTree::Path(path) => imported(&path.tree, names),
        UseTree::Name(name) => names.push(name.ident.to_string()),
        UseTree::Rename(rename) => names.push(rename.rename.to_string()),
        UseTree::Group(group) => group.items.iter().for_each(|tree| imported(tree, names)),
        UseTree::Glob(_) => {}
    }
}
