//! The form in a link: [`Form::to_query`] writes every setting and field text a link can carry,
//! [`Form::from_query`] reads one back. Reading never fails: every unknown key, malformed value or
//! oversized text is ignored and reported as a [`UrlNotice`]; everything else is kept. The words
//! themselves are spelled in [`super::words`].

use std::fmt;

use super::words::{LinkWord, ON_OFF, YES_NO, embed_from_word, keys};
use crate::model::catalog::FusionForm;
use crate::model::scenario::{AutodiffDeclared, BackendChoice, Declaration, Fix, OpKind};
use crate::model::training::OptimizerChoice;
use crate::teach::form::Form;

impl Form {
    /// The form as a URL query string (without the leading `?`). A field text longer than a
    /// link may carry ([`MAX_URL_TEXT_BYTES`]) is left out, so the link keeps every other
    /// setting and opens with the op's example in that field ([`Form::link_omits_text`]).
    pub fn to_query(&self) -> String {
        let texts = self.texts();
        let mut query = form_urlencoded::Serializer::new(String::new());
        query
            .append_pair(keys::OP, self.op.word())
            .append_pair(keys::DECLARES_AUTODIFF, self.declaration.autodiff().word())
            .append_pair(keys::DECLARES_FLEX, YES_NO.word(self.declaration.flex()));
        // Written only when on, so links made without fusion read as they always did.
        if self.fusion {
            query
                .append_pair(keys::FUSION, ON_OFF.word(true))
                .append_pair(keys::DECLARES_FUSION, self.declaration.fusion().word());
        }
        query
            .append_pair(keys::GRAD, ON_OFF.word(self.grad_context))
            .append_pair(keys::REQUIRE_GRAD, ON_OFF.word(self.require_grad))
            .append_pair(keys::FIX, self.fix.word())
            .append_pair(keys::BACKEND, self.backend.word());
        for (key, text) in [(keys::TENSOR, &*texts.tensor), (keys::PARAM, &texts.param)] {
            if text.len() <= MAX_URL_TEXT_BYTES {
                query.append_pair(key, text);
            }
        }
        for (key, text) in [
            (keys::STEPS, &self.train.steps),
            (keys::LEARNING_RATE, &self.train.learning_rate),
        ] {
            if text.len() <= MAX_URL_TEXT_BYTES {
                query.append_pair(key, text);
            }
        }
        query.append_pair(keys::OPTIMIZER, self.optimizer.word());
        if let Some(compare) = self.compare {
            query.append_pair(keys::COMPARE, compare.word());
        }
        if let Some(editor) = self
            .editor
            .as_ref()
            .filter(|text| text.len() <= MAX_URL_EDITOR_BYTES)
        {
            query.append_pair(keys::EDITOR, editor);
        }
        let query = query.finish();
        // `embed` is a bare key, as people write it: `…&embed`.
        if self.embed {
            format!("{query}&{}", keys::EMBED)
        } else {
            query
        }
    }

    /// Whether [`Form::to_query`] leaves a field's text out for being too long for a link.
    pub fn link_omits_text(&self) -> bool {
        let texts = self.texts();
        [
            &*texts.tensor,
            &texts.param,
            &self.train.steps,
            &self.train.learning_rate,
        ]
        .iter()
        .any(|text| text.len() > MAX_URL_TEXT_BYTES)
    }

    /// Whether [`Form::to_query`] leaves the editor's text out for being too long for a link.
    pub fn link_omits_editor(&self) -> bool {
        self.editor
            .as_ref()
            .is_some_and(|text| text.len() > MAX_URL_EDITOR_BYTES)
    }

    /// Reads a URL query (with or without the leading `?`). Settings absent from the query keep
    /// their defaults; anything unusable is skipped and reported.
    pub fn from_query(query: &str) -> (Form, Vec<UrlNotice>) {
        let mut form = Form::default();
        let mut notices = Vec::new();
        let query = query.strip_prefix('?').unwrap_or(query);
        if query.len() > MAX_QUERY_BYTES {
            notices.push(UrlNotice::new("the link", UrlProblem::TooLong));
            return (form, notices);
        }
        let pairs: Vec<(String, String)> = form_urlencoded::parse(query.as_bytes())
            .map(|(key, value)| (key.into_owned(), value.into_owned()))
            .collect();
        // The op decides which texts `x` and `param` belong to, wherever it appears.
        if let Some((_, value)) = pairs.iter().rev().find(|(key, _)| key == keys::OP) {
            match OpKind::from_word(value) {
                Some(op) => form.op = op,
                None => notices.push(UrlNotice::new(keys::OP, UrlProblem::BadValue)),
            }
        }
        let mut seen: Vec<&str> = Vec::new();
        for (key, value) in &pairs {
            let Some(known) = keys::ALL.iter().find(|known| **known == key) else {
                notices.push(UrlNotice::new(key, UrlProblem::UnknownKey));
                continue;
            };
            if seen.contains(known) {
                notices.push(UrlNotice::new(key, UrlProblem::Repeated));
            }
            seen.push(known);
            if let Err(problem) = form.apply(known, value) {
                notices.push(UrlNotice::new(key, problem));
            }
        }
        // The `Fusion` selector needs burn's fusion: without it, the link's choice is dropped.
        if !form.fusion && form.declaration.fusion() != FusionForm::None {
            form.declaration = form
                .declaration
                .with_fusion(FusionForm::None)
                .unwrap_or(Declaration::WITHOUT_AUTODIFF);
            notices.push(UrlNotice::new(
                keys::DECLARES_FUSION,
                UrlProblem::NeedsFusion,
            ));
        }
        (form, notices)
    }

    fn apply(&mut self, key: &str, value: &str) -> Result<(), UrlProblem> {
        fn word<T: LinkWord>(value: &str) -> Result<T, UrlProblem> {
            T::from_word(value).ok_or(UrlProblem::BadValue)
        }
        fn flag(words: super::words::FlagWords, value: &str) -> Result<bool, UrlProblem> {
            words.from_word(value).ok_or(UrlProblem::BadValue)
        }
        let declaration = self.declaration;
        match key {
            keys::OP => {} // applied first, above
            keys::DECLARES_AUTODIFF => {
                self.declaration = declaration
                    .with_autodiff(word::<AutodiffDeclared>(value)?)
                    .ok_or(UrlProblem::BadValue)?
            }
            keys::DECLARES_FLEX => {
                self.declaration = declaration
                    .with_flex(flag(YES_NO, value)?)
                    .ok_or(UrlProblem::BadValue)?
            }
            keys::FUSION => self.fusion = flag(ON_OFF, value)?,
            keys::DECLARES_FUSION => {
                self.declaration = declaration
                    .with_fusion(word::<FusionForm>(value)?)
                    .ok_or(UrlProblem::BadValue)?
            }
            keys::GRAD => self.grad_context = flag(ON_OFF, value)?,
            keys::REQUIRE_GRAD => self.require_grad = flag(ON_OFF, value)?,
            keys::FIX => self.fix = word::<Fix>(value)?,
            keys::BACKEND => self.backend = word::<BackendChoice>(value)?,
            keys::OPTIMIZER => self.optimizer = word::<OptimizerChoice>(value)?,
            keys::COMPARE => self.compare = Some(word::<Declaration>(value)?),
            keys::EMBED => self.embed = embed_from_word(value).ok_or(UrlProblem::BadValue)?,
            keys::EDITOR => {
                if value.len() > MAX_URL_EDITOR_BYTES {
                    return Err(UrlProblem::TooLong);
                }
                self.editor = Some(value.to_owned());
            }
            keys::STEPS | keys::LEARNING_RATE | keys::TENSOR | keys::PARAM => {
                if value.len() > MAX_URL_TEXT_BYTES {
                    return Err(UrlProblem::TooLong);
                }
                let value = value.to_owned();
                match key {
                    keys::STEPS => self.train.steps = value,
                    keys::LEARNING_RATE => self.train.learning_rate = value,
                    keys::TENSOR => self.texts_mut().tensor = value.into(),
                    _ => self.texts_mut().param = value,
                }
            }
            _ => return Err(UrlProblem::UnknownKey),
        }
        Ok(())
    }
}

/// Longest query read at all (256 KiB); a longer one is ignored whole.
pub const MAX_QUERY_BYTES: usize = 256 << 10;

/// Longest field text a link carries (64 KiB), written or read. Typed text may be longer (up
/// to the parser's 16 MiB); a link to it keeps the other settings.
pub const MAX_URL_TEXT_BYTES: usize = 64 << 10;

/// Longest editor text a link carries (4 KiB, about ten declarations), written or read: hosts
/// commonly refuse addresses past 8 KB, and a link escapes most of Rust's punctuation.
pub const MAX_URL_EDITOR_BYTES: usize = 4 << 10;

/// What was wrong with part of a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UrlProblem {
    /// A key the playground does not know.
    UnknownKey,
    /// A known key with a value it does not take.
    BadValue,
    /// A key given more than once (the last one counts).
    Repeated,
    /// A value (or the whole query) over its size limit.
    TooLong,
    /// The `Fusion` selector in a link that does not turn burn's fusion on.
    NeedsFusion,
}

/// One ignored part of a link. `Display` is the sentence shown to the user.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UrlNotice {
    /// The key, shortened to 32 characters.
    pub key: String,
    /// What was wrong.
    pub problem: UrlProblem,
}

impl UrlNotice {
    fn new(key: &str, problem: UrlProblem) -> UrlNotice {
        let mut shortened: String = key.chars().take(32).collect();
        if shortened.len() < key.len() {
            shortened.push('…');
        }
        UrlNotice {
            key: shortened,
            problem,
        }
    }
}

impl fmt::Display for UrlNotice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let key = &self.key;
        match self.problem {
            UrlProblem::UnknownKey => {
                write!(f, "Ignored “{key}” in the link: not a playground setting.")
            }
            UrlProblem::BadValue => write!(
                f,
                "Ignored “{key}” in the link: its value is not one the playground takes."
            ),
            UrlProblem::Repeated => write!(
                f,
                "“{key}” appears more than once in the link; the last one was used."
            ),
            UrlProblem::TooLong => write!(f, "Ignored {key}: it is too long to load from a link."),
            UrlProblem::NeedsFusion => write!(
                f,
                "Ignored “{key}” in the link: the Fusion selector needs burn's fusion feature (fusion=on)."
            ),
        }
    }
}
