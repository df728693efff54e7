//! The last parse of the text fields, so that a toggle or a re-run with unchanged text does not
//! parse it again: with a million values in the tensor field, parsing takes longer than the run.

use leptos::prelude::*;

use crate::model::scenario::{OpArgs, OpKind, Scenario};
use crate::teach::form::{Form, OpTexts};
use crate::teach::input::args::ArgsError;

struct Parsed {
    op: OpKind,
    texts: OpTexts,
    result: Result<OpArgs, Vec<ArgsError>>,
}

impl Parsed {
    fn of(form: &Form) -> Parsed {
        Parsed {
            op: form.op,
            texts: form.texts().clone(),
            result: form.parse_texts(),
        }
    }

    fn is_of(&self, form: &Form) -> bool {
        self.op == form.op && &self.texts == form.texts()
    }
}

/// Shared by the controls (field errors) and the runs (the scenario sent to the engine).
#[derive(Clone, Copy)]
pub struct ParseCache(StoredValue<Parsed>);

impl ParseCache {
    /// Starts with `form` parsed: the page's first run needs it.
    pub fn new(form: &Form) -> ParseCache {
        ParseCache(StoredValue::new(Parsed::of(form)))
    }

    /// The same as [`Form::scenario`], parsing only when the op or its texts changed.
    pub fn scenario(&self, form: &Form) -> Result<Scenario, Vec<ArgsError>> {
        self.with_parsed(form, Clone::clone)
            .map(|args| form.scenario_with(args))
    }

    /// The message for each field that does not parse (none when all do).
    pub fn errors(&self, form: &Form) -> Vec<ArgsError> {
        self.with_parsed(form, |parsed| {
            parsed.as_ref().err().cloned().unwrap_or_default()
        })
    }

    /// Reads the parse of the form's current texts, parsing them first if they changed.
    fn with_parsed<R>(
        &self,
        form: &Form,
        read: impl FnOnce(&Result<OpArgs, Vec<ArgsError>>) -> R,
    ) -> R {
        if !self.0.with_value(|parsed| parsed.is_of(form)) {
            self.0.set_value(Parsed::of(form));
        }
        self.0.with_value(|parsed| read(&parsed.result))
    }
}
