//! The playground's editable state — what the controls show, what the URL holds — and its
//! conversion to a runnable [`Scenario`].
//!
//! A [`Form`] keeps the text the user typed, per op, exactly as typed: parsing happens when a
//! scenario is built, so a typo is shown next to its field and never lost.
//!
//! The URL query carries the whole form (`?op=scale&declares_autodiff=no&grad=on&…&x=1,2,3`).
//! Reading a query never fails: every unknown key, malformed value or oversized text is ignored
//! and reported as a [`UrlNotice`]; everything else is kept.

use std::fmt;

use crate::model::catalog::FusionForm;
use crate::model::scenario::{
    AutodiffDeclared, BackendChoice, Declaration, Fix, OpArgs, OpKind, Scenario,
};
use crate::model::training::{OptimizerChoice, TrainSettings};
use crate::teach::input::{ArgsError, parse_args};
use crate::teach::training::{TrainInputError, TrainTexts, optimizer_name, parse_settings};

/// The text of one op's two fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpTexts {
    /// The tensor input, e.g. `1, -2, 3.5`.
    pub tensor: String,
    /// The scalar parameter, e.g. `2.5`.
    pub param: String,
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
            tensor: tensor.to_owned(),
            param: param.to_owned(),
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

    /// The form as a URL query string (without the leading `?`). A field text longer than a
    /// link may carry ([`MAX_URL_TEXT_BYTES`]) is left out, so the link keeps every other
    /// setting and opens with the op's example in that field ([`Form::link_omits_text`]).
    pub fn to_query(&self) -> String {
        let texts = self.texts();
        let mut query = form_urlencoded::Serializer::new(String::new());
        query
            .append_pair(keys::OP, self.op.name())
            .append_pair(
                keys::DECLARES_AUTODIFF,
                autodiff_name(self.declaration.autodiff()),
            )
            .append_pair(keys::DECLARES_FLEX, yes_no(self.declaration.flex()));
        // Written only when on, so links made without fusion read as they always did.
        if self.fusion {
            query.append_pair(keys::FUSION, "on").append_pair(
                keys::DECLARES_FUSION,
                fusion_name(self.declaration.fusion()),
            );
        }
        query
            .append_pair(keys::GRAD, on_off(self.grad_context))
            .append_pair(keys::REQUIRE_GRAD, on_off(self.require_grad))
            .append_pair(keys::FIX, fix_name(self.fix))
            .append_pair(keys::BACKEND, backend_name(self.backend));
        for (key, text) in [(keys::TENSOR, &texts.tensor), (keys::PARAM, &texts.param)] {
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
        query.append_pair(keys::OPTIMIZER, optimizer_name(self.optimizer));
        if let Some(compare) = self.compare {
            query.append_pair(keys::COMPARE, compare.module());
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
            &texts.tensor,
            &texts.param,
            &self.train.steps,
            &self.train.learning_rate,
        ]
        .iter()
        .any(|text| text.len() > MAX_URL_TEXT_BYTES)
    }

    /// The training settings, or a message for each training field that does not parse.
    pub fn train_settings(&self) -> Result<TrainSettings, Vec<TrainInputError>> {
        parse_settings(&self.train, self.optimizer)
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
            match OpKind::ALL.into_iter().find(|op| op.name() == value) {
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
        match key {
            keys::OP => {} // applied first, above
            keys::DECLARES_AUTODIFF => {
                let autodiff = AutodiffDeclared::ALL
                    .into_iter()
                    .find(|&autodiff| autodiff_name(autodiff) == value)
                    .ok_or(UrlProblem::BadValue)?;
                self.declaration = self
                    .declaration
                    .with_autodiff(autodiff)
                    .ok_or(UrlProblem::BadValue)?;
            }
            keys::DECLARES_FLEX => {
                let flex = parse_flag(value, "yes", "no")?;
                self.declaration = self
                    .declaration
                    .with_flex(flex)
                    .ok_or(UrlProblem::BadValue)?;
            }
            keys::FUSION => self.fusion = parse_flag(value, "on", "off")?,
            keys::DECLARES_FUSION => {
                let fusion = FusionForm::ALL
                    .into_iter()
                    .find(|&form| fusion_name(form) == value)
                    .ok_or(UrlProblem::BadValue)?;
                self.declaration = self
                    .declaration
                    .with_fusion(fusion)
                    .ok_or(UrlProblem::BadValue)?;
            }
            keys::GRAD => self.grad_context = parse_flag(value, "on", "off")?,
            keys::REQUIRE_GRAD => self.require_grad = parse_flag(value, "on", "off")?,
            keys::FIX => {
                self.fix = Fix::ALL
                    .into_iter()
                    .find(|&fix| fix_name(fix) == value)
                    .ok_or(UrlProblem::BadValue)?
            }
            keys::BACKEND => {
                self.backend = BackendChoice::ALL
                    .into_iter()
                    .find(|&backend| backend_name(backend) == value)
                    .ok_or(UrlProblem::BadValue)?
            }
            keys::OPTIMIZER => {
                self.optimizer = OptimizerChoice::ALL
                    .into_iter()
                    .find(|&optimizer| optimizer_name(optimizer) == value)
                    .ok_or(UrlProblem::BadValue)?
            }
            keys::COMPARE => {
                self.compare = Some(
                    Declaration::ALL
                        .iter()
                        .copied()
                        .find(|declaration| declaration.module() == value)
                        .ok_or(UrlProblem::BadValue)?,
                )
            }
            keys::EMBED => {
                self.embed = match value {
                    "" | "1" | "yes" | "on" => true,
                    "0" | "no" | "off" => false,
                    _ => return Err(UrlProblem::BadValue),
                }
            }
            keys::STEPS | keys::LEARNING_RATE => {
                if value.len() > MAX_URL_TEXT_BYTES {
                    return Err(UrlProblem::TooLong);
                }
                if key == keys::STEPS {
                    self.train.steps = value.to_owned();
                } else {
                    self.train.learning_rate = value.to_owned();
                }
            }
            keys::TENSOR | keys::PARAM => {
                if value.len() > MAX_URL_TEXT_BYTES {
                    return Err(UrlProblem::TooLong);
                }
                let texts = self.texts_mut();
                if key == keys::TENSOR {
                    texts.tensor = value.to_owned();
                } else {
                    texts.param = value.to_owned();
                }
            }
            _ => return Err(UrlProblem::UnknownKey),
        }
        Ok(())
    }
}

/// The query keys.
pub mod keys {
    /// `scale`, `leaky_relu` or `shift_ids`.
    pub const OP: &str = "op";
    /// `no`, `yes`, `cfg_off` or `cfg_on`: the `Autodiff` selector (see [`autodiff_name`]).
    pub const DECLARES_AUTODIFF: &str = "declares_autodiff";
    /// `yes` or `no`: the `Flex` selector.
    pub const DECLARES_FLEX: &str = "declares_flex";
    /// `on` or `off`: burn built with its `fusion` feature (written only when on).
    pub const FUSION: &str = "fusion";
    /// `no`, `shape`, `meta`, `default` or `wrong_shape`: the `Fusion` selector and its
    /// method's `#[fusion(...)]` form (see [`fusion_name`]); only with `fusion=on`.
    pub const DECLARES_FUSION: &str = "declares_fusion";
    /// `on` or `off`: the autodiff device.
    pub const GRAD: &str = "grad";
    /// `on` or `off`.
    pub const REQUIRE_GRAD: &str = "require_grad";
    /// `none`, `detach` or `builtin`.
    pub const FIX: &str = "fix";
    /// `gpu` or `cpu`.
    pub const BACKEND: &str = "backend";
    /// The tensor text.
    pub const TENSOR: &str = "x";
    /// The scalar parameter text.
    pub const PARAM: &str = "param";
    /// Training: the number of steps, as typed.
    pub const STEPS: &str = "steps";
    /// Training: the learning rate, as typed.
    pub const LEARNING_RATE: &str = "lr";
    /// Training: `adam` or `sgd`.
    pub const OPTIMIZER: &str = "optimizer";
    /// The routing view's "compare with": a declaration's module name (`cube_flex`, …).
    pub const COMPARE: &str = "compare";
    /// The compact page for an iframe; written bare (`…&embed`).
    pub const EMBED: &str = "embed";
    /// Every key, in the order links are written.
    pub const ALL: [&str; 16] = [
        OP,
        DECLARES_AUTODIFF,
        DECLARES_FLEX,
        FUSION,
        DECLARES_FUSION,
        GRAD,
        REQUIRE_GRAD,
        FIX,
        BACKEND,
        TENSOR,
        PARAM,
        STEPS,
        LEARNING_RATE,
        OPTIMIZER,
        COMPARE,
        EMBED,
    ];
}

/// Longest query read at all (256 KiB); a longer one is ignored whole.
pub const MAX_QUERY_BYTES: usize = 256 << 10;

/// Longest field text a link carries (64 KiB), written or read. Typed text may be longer (up
/// to the parser's 16 MiB); a link to it keeps the other settings.
pub const MAX_URL_TEXT_BYTES: usize = 64 << 10;

fn yes_no(value: bool) -> &'static str {
    if value { "yes" } else { "no" }
}

fn on_off(value: bool) -> &'static str {
    if value { "on" } else { "off" }
}

fn parse_flag(value: &str, yes: &str, no: &str) -> Result<bool, UrlProblem> {
    if value == yes {
        Ok(true)
    } else if value == no {
        Ok(false)
    } else {
        Err(UrlProblem::BadValue)
    }
}

/// A declaration as the page names it in a list: its selectors as written, and for a cfg-gated
/// `Autodiff` whether the build has the feature on.
pub fn declaration_label(declaration: Declaration) -> String {
    match declaration.autodiff() {
        AutodiffDeclared::CfgOff => format!("{} — feature off", declaration.selectors()),
        AutodiffDeclared::CfgOn => format!("{} — feature on", declaration.selectors()),
        AutodiffDeclared::Absent | AutodiffDeclared::Listed => declaration.selectors().to_owned(),
    }
}

/// What a declaration says about autodiff, in links: `no`, `yes` (listed), `cfg_off` (listed
/// behind a cfg, built with its feature off), `cfg_on` (the same, feature on).
pub fn autodiff_name(autodiff: AutodiffDeclared) -> &'static str {
    match autodiff {
        AutodiffDeclared::Absent => "no",
        AutodiffDeclared::Listed => "yes",
        AutodiffDeclared::CfgOff => "cfg_off",
        AutodiffDeclared::CfgOn => "cfg_on",
    }
}

/// The `Fusion` selector's form, in links.
pub fn fusion_name(form: FusionForm) -> &'static str {
    match form {
        FusionForm::None => "no",
        FusionForm::Shape => "shape",
        FusionForm::Meta => "meta",
        FusionForm::Default => "default",
        FusionForm::WrongShape => "wrong_shape",
    }
}

/// The fix's name in links.
pub fn fix_name(fix: Fix) -> &'static str {
    match fix {
        Fix::None => "none",
        Fix::Detach => "detach",
        Fix::Builtin => "builtin",
    }
}

/// The backend's name in links.
pub fn backend_name(backend: BackendChoice) -> &'static str {
    match backend {
        BackendChoice::Gpu => "gpu",
        BackendChoice::Cpu => "cpu",
    }
}

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
