//! The last parse of the text fields, so that a toggle or a re-run with unchanged text does not
//! parse it again: with a million values in the tensor field, parsing takes longer than the run.

use leptos::prelude::*;

use crate::form::{Form, OpTexts};
use crate::input::ArgsError;
use crate::scenario::{OpArgs, OpKind, Scenario};

struct Parsed {
    op: OpKind,
    texts: OpTexts,
    result: Result<OpArgs, Vec<ArgsError>>,
}

/// Shared by the controls (field errors) and the runs (the scenario sent to the engine).
#[derive(Clone, Copy)]
pub struct ParseCache(StoredValue<Option<Parsed>>);

impl ParseCache {
    pub fn new() -> ParseCache {
        ParseCache(StoredValue::new(None))
    }

    /// The same as [`Form::scenario`], parsing only when the op or its texts changed.
    pub fn scenario(&self, form: &Form) -> Result<Scenario, Vec<ArgsError>> {
        let cached = self.0.with_value(|parsed| {
            parsed
                .as_ref()
                .filter(|parsed| parsed.op == form.op && &parsed.texts == form.texts())
                .map(|parsed| parsed.result.clone())
        });
        let result = cached.unwrap_or_else(|| {
            let result = form.parse_texts();
            self.0.set_value(Some(Parsed {
                op: form.op,
                texts: form.texts().clone(),
                result: result.clone(),
            }));
            result
        });
        result.map(|args| form.scenario_with(args))
    }
}
