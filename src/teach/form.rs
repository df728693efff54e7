//! The playground's editable state — what the controls show — and its conversion to a runnable
//! [`Scenario`].
//!
//! A [`Form`] keeps the text the user typed, per op, exactly as typed: parsing happens when a
//! scenario is built, so a typo is shown next to its field and never lost. The whole form also
//! lives in the URL ([`crate::teach::link`]).

use std::sync::Arc;

use crate::model::scenario::{BackendChoice, Declaration, Fix, OpArgs, OpKind, Scenario};
use crate::model::training::{OptimizerChoice, TrainSettings};
use crate::teach::input::args::{ArgsError, parse_args};
use crate::teach::input::settings::{TrainInputError, TrainTexts, parse_settings};

/// The text of one op's two fields.
#[derive(Clone, Debug, Eq)]
pub struct OpTexts {
    /// The tensor input, e.g. `1, -2, 3.5`: shared, not copied, by every clone of the form, and
    /// compared by address first, so that telling whether a million typed values changed since
    /// the last parse reads none of them.
    pub tensor: Arc<str>,
    /// The scalar parameter, e.g. `2.5`.
    pub param: String,
}

impl PartialEq for OpTexts {
    fn eq(&self, other: &OpTexts) -> bool {
        // `Arc`'s own equality compares `str`s byte by byte even when both are one allocation.
        (Arc::ptr_eq(&self.tensor, &other.tensor) || self.tensor == other.tensor)
            && self.param == other.param
    }
}

impl OpTexts {
    /// The example each op starts with.
    pub fn example(op: OpKind) -> OpTexts {
        let (tensor, param) = match op {
            OpKind::Scale => ("1, -2, 3.5", "2.5"),
            OpKind::LeakyRelu => ("-2, -0.5, 0.75, 3", "0.125"),
            OpKind::ShiftIds => ("0, 7, 41, 3", "1000"),
        };
        OpTexts {
            tensor: tensor.into(),
            param: param.to_owned(),
        }
    }

    /// A two-dimensional input for `op` (rows split by `;`): where flattening the input changes
    /// its shape.
    pub fn two_dimensional(op: OpKind) -> &'static str {
        match op {
            OpKind::Scale => "1, -2, 3.5; 0.25, -0.5, 8",
            OpKind::LeakyRelu => "-2, -0.5, 0.75; 3, -8, 0.5",
            OpKind::ShiftIds => "0, 7; 41, 3",
        }
    }
}

/// Everything the user can set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Form {
    /// The selected op.
    pub op: OpKind,
    /// How the op is declared.
    pub declaration: Declaration,
    /// Whether the input is created on an autodiff device.
    pub grad_context: bool,
    /// Whether the (float) input is marked `require_grad()`.
    pub require_grad: bool,
    /// The call-site fix.
    pub fix: Fix,
    /// The backend the user asked for.
    pub backend: BackendChoice,
    /// Field texts for each op, in [`OpKind::ALL`] order, so switching ops loses nothing.
    texts: [OpTexts; 3],
    /// The training fields' text.
    pub train: TrainTexts,
    /// The training optimiser.
    pub optimizer: OptimizerChoice,
    /// Whether burn is built with its `fusion` feature (the page then runs the fusion engine).
    pub fusion: bool,
    /// The declaration the routing view compares with, if any.
    pub compare: Option<Declaration>,
    /// Whether the page is embedded (the compact layout for an iframe).
    pub embed: bool,
    /// The text of "Write your own declaration", once the person has opened it.
    pub editor: Option<String>,
}

impl Default for Form {
    /// The situation the playground exists for: an op declared without `Autodiff`, called in a
    /// training loop. For the int op this is burn's autodiff-context panic (routing.rs:1126).
    fn default() -> Form {
        Form {
            op: OpKind::ShiftIds,
            declaration: Declaration::WITHOUT_AUTODIFF,
            grad_context: true,
            require_grad: false,
            fix: Fix::None,
            backend: BackendChoice::Gpu,
            texts: OpKind::ALL.map(OpTexts::example),
            train: TrainTexts::default(),
            optimizer: OptimizerChoice::Adam,
            fusion: false,
            compare: None,
            embed: false,
            editor: None,
        }
    }
}

fn op_index(op: OpKind) -> usize {
    OpKind::ALL
        .iter()
        .position(|&candidate| candidate == op)
        .unwrap_or(0)
}

impl Form {
    /// The selected op's field texts.
    pub fn texts(&self) -> &OpTexts {
        &self.texts[op_index(self.op)]
    }

    /// The selected op's field texts, for editing.
    pub fn texts_mut(&mut self) -> &mut OpTexts {
        &mut self.texts[op_index(self.op)]
    }

    /// The scenario to run, or the message for each field that does not parse.
    pub fn scenario(&self) -> Result<Scenario, Vec<ArgsError>> {
        Ok(self.scenario_with(self.parse_texts()?))
    }

    /// The selected op's field texts, parsed.
    pub fn parse_texts(&self) -> Result<OpArgs, Vec<ArgsError>> {
        let texts = self.texts();
        parse_args(self.op, &texts.tensor, &texts.param)
    }

    /// The scenario for arguments already parsed from [`Form::parse_texts`].
    pub fn scenario_with(&self, args: OpArgs) -> Scenario {
        Scenario {
            args,
            declaration: self.declaration,
            grad_context: self.grad_context,
            require_grad: self.require_grad,
            fix: self.fix,
            backend: self.backend,
            fusion: self.fusion,
        }
    }

    /// The training settings, or a message for each training field that does not parse.
    pub fn train_settings(&self) -> Result<TrainSettings, Vec<TrainInputError>> {
        parse_settings(&self.train, self.optimizer)
    }
}
