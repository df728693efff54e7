//! The claims check: every sentence the `teach` layer produces for a run, checked against what
//! the run recorded.
//!
//! Used by `tests/matrix.rs` (every single-run cell) and `tests/training.rs` (every training
//! cell). The checker is written apart from the sentence builders: it does not call them to
//! decide what is true. It knows phrases — "the input is wrapped by autodiff", "fell from …",
//! "no gradient reached …" — and, for each, the fact of the run that makes it true. Every
//! sentence must contain at least one known phrase (an unknown sentence fails: a new sentence
//! needs its facts named here), and every phrase found must hold. Fix offers are checked against
//! the run of the scenario the fix produces, and their code against the exported project of that
//! scenario (which `tests/export.rs` builds and runs).

#![allow(dead_code)]

use burn_extension_playground::model::catalog::FusionForm;
use burn_extension_playground::model::outcome::{
    Completed, ImplCall, Outcome, PanicReport, Phase, Route, Stage, Values,
};
use burn_extension_playground::model::scenario::{
    AutodiffDeclared, BackendChoice, Declaration, Fix, OpKind, Scenario,
};
use burn_extension_playground::model::training::{
    HIDDEN, LEAKY_SLOPE, OptimizerChoice, SCALE_FACTOR, SHIFT, TrainEnd, TrainOutcome, TrainReport,
    TrainRequest,
};
use burn_extension_playground::teach::code::op_sources::fusion_attribute;
use burn_extension_playground::teach::code::snippets::training_call_site;
use burn_extension_playground::teach::export::project::{Project, export};
use burn_extension_playground::teach::form::Form;
use burn_extension_playground::teach::numbers::shape_text;
use burn_extension_playground::teach::routing::diagnostics::{
    list_fusion_fix, list_fusion_fix_text,
};
use burn_extension_playground::teach::routing::expanded;
use burn_extension_playground::teach::words::explain::{FixContext, FixOffer, PanicKind, fixes};
use burn_extension_playground::teach::words::present::{
    flattened_shape_note, missing_gradient_reason, panic_location_text, route_explanation,
    route_title,
};
use burn_extension_playground::teach::words::training::{
    end_text, loss_text, model_text, params_text, request_text,
};
use libtest_mimic::Failed;

/// A phrase and whether the run makes it true.
type Rule<'a> = (&'a str, bool);

/// Checks one sentence: every clause of it must be covered by a phrase of `rules` (a clause is
/// covered when a phrase found in the sentence overlaps it), and every phrase it contains must
/// hold. A sentence that adds an unknown clause to a true one fails.
pub fn check_sentence(sentence: &str, rules: &[Rule]) -> Result<(), Failed> {
    let mut found: Vec<(usize, usize)> = Vec::new();
    for &(phrase, holds) in rules {
        for (start, _) in sentence.match_indices(phrase) {
            if !holds {
                return Err(format!(
                    "the page says “{phrase}”, which this run contradicts: {sentence}"
                )
                .into());
            }
            found.push((start, start + phrase.len()));
        }
    }
    if found.is_empty() {
        return Err(
            format!("no fact of the run is known to back this sentence: {sentence}").into(),
        );
    }
    for (start, end) in clauses(sentence) {
        if !found
            .iter()
            .any(|&(phrase_start, phrase_end)| phrase_start < end && start < phrase_end)
        {
            if std::env::var("CLAIMS_REPORT").is_ok() {
                eprintln!("UNCOVERED «{}» IN «{sentence}»", &sentence[start..end]);
                continue;
            }
            return Err(format!(
                "no fact of the run is known to back “{}” in: {sentence}",
                &sentence[start..end]
            )
            .into());
        }
    }
    Ok(())
}

/// The clauses of a sentence, as byte ranges: split at `.`, `:`, `;`, `,`, `—`, `·`, and at
/// “ and ” / “ so ” / “ but ”, never inside brackets (`Autodiff<B, C>`, `cfg(feature = …)`).
pub fn clauses(sentence: &str) -> Vec<(usize, usize)> {
    const JOINS: [&str; 5] = [" and ", " so ", " but ", " — ", " · "];
    let bytes = sentence.as_bytes();
    let mut ranges = Vec::new();
    let mut depth = 0i32;
    let mut in_code = false;
    let mut start = 0;
    let mut index = 0;
    while index < sentence.len() {
        let rest = &sentence[index..];
        let c = rest.chars().next().unwrap_or(' ');
        match c {
            '`' => in_code = !in_code,
            '(' | '<' | '[' | '“' => depth += 1,
            ')' | '>' | ']' | '”' => depth = (depth - 1).max(0),
            _ => {}
        }
        let cut = if depth > 0 || in_code {
            None
        } else if matches!(c, ',' | ';' | ':' | '.')
            && bytes.get(index + 1).is_none_or(|next| *next == b' ')
        {
            Some(c.len_utf8())
        } else {
            JOINS
                .iter()
                .find(|join| rest.starts_with(*join))
                .map(|join| join.len())
        };
        if let Some(length) = cut {
            push_clause(sentence, start, index, &mut ranges);
            start = index + length;
            index += length;
        } else {
            index += c.len_utf8();
        }
    }
    push_clause(sentence, start, sentence.len(), &mut ranges);
    ranges
}

fn push_clause(sentence: &str, start: usize, end: usize, ranges: &mut Vec<(usize, usize)>) {
    let start = end - sentence[start..end].trim_start().len();
    let text = &sentence[start..end];
    if text.chars().any(char::is_alphanumeric) {
        ranges.push((start, end));
    }
}

/// Whether `implementor` is a concrete implementation for the routing tensor's `backend`: Flex, or
/// for Cube the CubeCL backend — itself, or under burn's fusion `Fusion<CubeBackend>` (the impl
/// fusion's generated code reaches, or the default body serving it).
fn is_concrete(implementor: &str, backend: &str) -> bool {
    if backend == "Flex" {
        implementor == "Flex"
    } else {
        implementor == "CubeBackend" || implementor == "Fusion<CubeBackend>"
    }
}

fn forward_autodiff(impls: &[ImplCall]) -> bool {
    impls
        .iter()
        .any(|call| call.phase == Phase::Forward && call.implementor.starts_with("Autodiff<"))
}

fn lists_autodiff(declaration: Declaration) -> bool {
    matches!(
        declaration.autodiff(),
        AutodiffDeclared::Listed | AutodiffDeclared::CfgOn
    )
}

/// Whether the declaration's selectors name `backend` (`Cube`, `Flex`), read from the selector
/// list as written.
fn lists_backend(declaration: Declaration, backend: &str) -> bool {
    declaration
        .selectors()
        .split(',')
        .any(|selector| selector.trim() == backend)
}

/// The op's source file that implements it for `Autodiff<B, C>`.
fn autodiff_source(op: OpKind) -> &'static str {
    match op {
        OpKind::Scale => include_str!("../../src/ops/scale/autodiff.rs"),
        OpKind::LeakyRelu => include_str!("../../src/ops/leaky_relu/autodiff.rs"),
        OpKind::ShiftIds => include_str!("../../src/ops/shift_ids/autodiff.rs"),
    }
}

/// Whether the op's `Autodiff<B, C>` impl is empty: its trait's default body, written with
/// burn's tensor ops, is the implementation.
fn autodiff_impl_is_default_body(op: OpKind) -> bool {
    autodiff_source(op).contains("for Autodiff<B, C> {}")
}

/// Whether the op has an impl for `Autodiff<B, C>`.
fn autodiff_impl_exists(op: OpKind) -> bool {
    autodiff_source(op).contains("for Autodiff<B, C> {")
}

/// Whether the op's shared concrete implementations (the files the engine compiles) implement
/// it for `backend`'s type.
fn implemented_for(op: OpKind, backend: &str) -> bool {
    let source = match op {
        OpKind::Scale => include_str!("../../src/ops/scale/concrete.rs"),
        OpKind::LeakyRelu => include_str!("../../src/ops/leaky_relu/concrete.rs"),
        OpKind::ShiftIds => include_str!("../../src/ops/shift_ids/concrete.rs"),
    };
    source.contains(&format!("for {backend} {{"))
}

/// The sentences of a completed run, with their rules.
fn check_completed(scenario: &Scenario, completed: &Completed) -> Result<(), Failed> {
    let routing = completed.routing_tensor.as_ref();
    let wrapped = routing.is_some_and(|tensor| tensor.autodiff_wrapped);
    let context = routing.is_some_and(|tensor| tensor.autodiff_context);
    let int = matches!(completed.output.values, Values::Int(_));
    let only_concrete = !completed.impls.is_empty()
        && completed.impls.iter().all(|call| {
            routing.is_some_and(|tensor| is_concrete(&call.implementor, &tensor.backend))
        });
    let not_called = completed.impls.is_empty() && routing.is_none();
    let backward_called = completed
        .impls
        .iter()
        .any(|call| call.phase == Phase::Backward);
    let title = route_title(completed.route);
    let titles: [Rule; 4] = [
        (
            "Concrete implementation, in the autodiff context",
            only_concrete && completed.output_autodiff,
        ),
        (
            "Autodiff<B, C> implementation",
            forward_autodiff(&completed.impls),
        ),
        (
            "Builtin tensor ops (custom op not called)",
            not_called && completed.route == Route::Builtin,
        ),
        ("Concrete implementation", only_concrete),
    ];
    // A title is one phrase: the longest one it is.
    let matched = titles.iter().find(|(phrase, _)| title == *phrase);
    match matched {
        Some((_, true)) => {}
        Some((phrase, false)) => return Err(format!("the route is titled “{phrase}”").into()),
        None => return Err(format!("unknown route title: {title}").into()),
    }
    check_sentence(
        &route_explanation(completed),
        &[
            (
                "found a concrete backend tensor with the autodiff context disabled",
                routing.is_some() && !wrapped && !context,
            ),
            (
                "called the op's implementation for that backend",
                only_concrete,
            ),
            (
                "The routing tensor is an int tensor",
                int && routing.is_some(),
            ),
            ("which autodiff never wraps", !wrapped),
            (
                "The declaration lets the routing accept the enabled autodiff context",
                context && lists_autodiff(scenario.declaration),
            ),
            (
                "re-wrapped its output in that context",
                completed.output_autodiff,
            ),
            ("The input is wrapped by autodiff", wrapped),
            (
                "the op lists the Autodiff selector",
                lists_autodiff(scenario.declaration),
            ),
            (
                "called the op's impl for Autodiff<B, C>",
                forward_autodiff(&completed.impls),
            ),
            (
                "which recorded the op's own backward step",
                completed.output_tracked && backward_called,
            ),
            (
                "backward() called the op's implementation again",
                completed.output_tracked && backward_called,
            ),
            (
                "and its output is tracked by autodiff",
                completed.output_tracked,
            ),
            (
                "Under fusion the op's CubeCL implementation records itself when fusion runs its queue (the list below names the step)",
                completed
                    .impls
                    .iter()
                    .any(|call| call.phase == Phase::Deferred && call.implementor == "CubeBackend"),
            ),
            (
                "so which pass called it is not recorded",
                completed
                    .impls
                    .iter()
                    .any(|call| call.phase == Phase::Deferred),
            ),
            (
                "Its body is made of burn's tensor ops",
                autodiff_impl_is_default_body(scenario.args.kind()),
            ),
            (
                "which recorded their own backward steps",
                completed.gradient.is_some() && !backward_called,
            ),
            (
                "backward() called no implementation of the op",
                completed.output_tracked && completed.gradient.is_some() && !backward_called,
            ),
            (
                "nothing was recorded for backward()",
                !completed.output_tracked,
            ),
            (
                "The input does not require a gradient",
                !completed.input.require_grad,
            ),
            ("The custom op was not called", not_called),
            (
                "burn's own tensor ops computed the result",
                completed.route == Route::Builtin,
            ),
            ("gave the gradient", completed.gradient.is_some()),
            ("it ran the concrete implementation", only_concrete),
        ],
    )?;
    let note = flattened_shape_note(scenario.declaration, completed);
    if scenario.declaration.fusion() == FusionForm::WrongShape
        && scenario.args.shape().len() == 1
        && note.is_none()
    {
        return Err("a flattened declared shape on a 1-D input, and no note saying so".into());
    }
    if let Some(note) = note {
        let (declared, kernel) = (&completed.output.shape, &completed.reference.shape);
        check_sentence(
            &note,
            &[
                (
                    "This declaration flattens the output's shape to one dimension",
                    scenario.declaration.fusion() == FusionForm::WrongShape && declared.len() == 1,
                ),
                (
                    "this input already has one",
                    scenario.args.shape().len() == 1,
                ),
                (
                    &format!(
                        "the declared shape, {}, is the kernel's, {}",
                        shape_text(declared),
                        shape_text(kernel)
                    ),
                    declared == kernel,
                ),
                (
                    "so the run shows nothing wrong",
                    completed.output_difference == Some(0.0),
                ),
            ],
        )?;
    }
    if let Some(reason) = missing_gradient_reason(completed) {
        check_sentence(
            reason,
            &[
                (
                    "Int outputs have no gradient.",
                    int && completed.gradient.is_none(),
                ),
                ("No gradient:", completed.gradient.is_none()),
                (
                    "the input is not on an autodiff device",
                    !completed.input.autodiff,
                ),
                ("so nothing is tracked", !completed.output_tracked),
                (
                    "the op received the input without autodiff",
                    completed.input.autodiff && routing.is_some() && !context,
                ),
                ("backward() cannot reach it", completed.gradient.is_none()),
                (
                    "the input does not require one",
                    !completed.input.require_grad,
                ),
                (
                    "the output is not tracked by autodiff",
                    !completed.output_tracked,
                ),
            ],
        )?;
    } else if completed.gradient.is_none() {
        return Err("no gradient, and no sentence saying why".into());
    }
    Ok(())
}

/// The sentences explaining a panic (not its fixes).
fn check_meaning(
    op: OpKind,
    declaration: Declaration,
    report: &PanicReport,
    kind: &PanicKind,
    fix_labels: &[&str],
) -> Result<(), Failed> {
    let routing = report.routing_tensor.as_ref();
    let wrapped = routing.is_some_and(|tensor| tensor.autodiff_wrapped);
    let context = routing.is_some_and(|tensor| tensor.autodiff_context);
    let backend = routing.map(|tensor| tensor.backend.as_str()).unwrap_or("");
    let fallback = report
        .message
        .contains("Backend not supported for custom op");
    let refused = report
        .message
        .contains("Autodiff not supported for custom op");
    let generated = expanded::source(op, declaration).unwrap_or("");
    let mut rules: Vec<(String, bool)> = vec![
        ("The input lives on an autodiff device".into(), wrapped),
        ("its dispatch tensor is autodiff-wrapped".into(), wrapped),
        (
            "The op's declaration lists no Autodiff selector".into(),
            declaration.autodiff() == AutodiffDeclared::Absent,
        ),
        (
            "The declaration does list Autodiff, but behind cfg(feature = \"autodiff\"), and the feature is off".into(),
            declaration.autodiff() == AutodiffDeclared::CfgOff,
        ),
        ("the fallback arm panics".into(), fallback),
        ("The input is an int tensor".into(), op.takes_int_input()),
        ("Autodiff never wraps ints".into(), !wrapped),
        ("the context is Enabled".into(), context),
        (
            "without the Autodiff selector the arm refuses it".into(),
            refused && declaration.autodiff() == AutodiffDeclared::Absent,
        ),
        (
            "the arm for an Enabled context carries cfg(feature = \"autodiff\"), the feature is off".into(),
            declaration.autodiff() == AutodiffDeclared::CfgOff,
        ),
        ("the fallback refuses the Enabled context".into(), refused),
        (
            "burn refused while the input was being marked".into(),
            report.stage == Some(Stage::RequireGrad),
        ),
        (
            "before the custom op was called".into(),
            report.impls.is_empty() && routing.is_none(),
        ),
        ("burn raised this panic while the scenario ran.".into(), true),
        (
            "Under Fusion the op is queued".into(),
            declaration.fusion() != FusionForm::None && backend == "Cube",
        ),
        (
            "its output's shape is the one the method's #[fusion(shape = …)] declares".into(),
            declaration.fusion() != FusionForm::None && backend == "Cube",
        ),
        (
            "worked out before the kernel runs".into(),
            declaration.fusion() != FusionForm::None && backend == "Cube",
        ),
        (
            "The wrong shape is not caught at the op: Fusion takes the declared metadata on trust".into(),
            declaration.fusion() == FusionForm::WrongShape
                && matches!(report.stage, Some(Stage::ReadBack | Stage::Forward)),
        ),
        (
            "burn never compares it with the shape the kernel writes".into(),
            declaration.fusion() == FusionForm::WrongShape
                && matches!(report.stage, Some(Stage::ReadBack | Stage::Forward)),
        ),
        (
            "here the input flattened to one dimension".into(),
            declaration.fusion() == FusionForm::WrongShape,
        ),
        (
            "The run recorded the panic".into(),
            report.stage == Some(Stage::ReadBack),
        ),
        (
            format!(
                "The run recorded the panic at {}, in the read-back step",
                report
                    .location
                    .as_ref()
                    .map(panic_location_text)
                    .unwrap_or_default()
            ),
            report.stage == Some(Stage::ReadBack) && report.location.is_some(),
        ),
        (
            "In the model's forward pass, the next op took its input's dimensions from that declared shape and panicked".into(),
            report.stage == Some(Stage::Forward) && report.training_step.is_some(),
        ),
        (
            "before the queued kernel had run".into(),
            !report.impls.iter().any(|call| call.implementor == "CubeBackend"),
        ),
        (
            "after the queued kernel had run".into(),
            report.impls.iter().any(|call| call.implementor == "CubeBackend"),
        ),
        (
            "the error surfaces later, where the output is first used".into(),
            // A single run first uses the output reading it back; a model, in its next op.
            report.stage == Some(Stage::ReadBack)
                || (report.stage == Some(Stage::Forward)
                    && report.training_step.is_some()
                    && report.routing_tensor.is_some()),
        ),
        ("This is not the “Autodiff not supported…” message".into(), !refused),
        (
            "a float op's wrapped input fails the backend match first".into(),
            !op.takes_int_input() && wrapped && fallback,
        ),
        ("The source says Autodiff; the build does not.".into(), declaration.autodiff() == AutodiffDeclared::CfgOff),
        (
            "the fix below builds it with the feature on".into(),
            fix_labels.contains(&"Enable the feature"),
        ),
        (
            "require_grad() marks a tensor for the autodiff graph".into(),
            report.stage == Some(Stage::RequireGrad),
        ),
        (
            "there is no graph outside an autodiff device".into(),
            report.stage == Some(Stage::RequireGrad),
        ),
        (
            "the match that picks the backend has no arm for it".into(),
            fallback && !lists_backend(declaration, backend),
        ),
        (
            "wrapped or not".into(),
            fallback && wrapped && !lists_backend(declaration, backend),
        ),
        ("on an autodiff device".into(), context),
        (
            "the tag becomes usize::MAX".into(),
            fallback && generated.contains("usize::MAX"),
        ),
        (
            "the generated match that picks the backend has no arm for a wrapped tensor".into(),
            fallback
                && wrapped
                && lists_backend(declaration, backend)
                && declaration.autodiff() == AutodiffDeclared::Absent,
        ),
        (
            "the arm for wrapped tensors was compiled out with it".into(),
            fallback && wrapped && declaration.autodiff() == AutodiffDeclared::CfgOff,
        ),
        (
            "A cfg on a selector is evaluated in the crate that declares the op, with that crate's features".into(),
            declaration.autodiff() == AutodiffDeclared::CfgOff,
        ),
        ("as the highlighted fallback arm shows".into(), fallback),
        (
            "The arm with the “Autodiff not supported…” check is only reached by ops whose routing tensor is not wrapped — int tensors".into(),
            fallback && wrapped && !refused && generated.contains("Autodiff not supported"),
        ),
        (
            "the tensor was created on an autodiff device".into(),
            context,
        ),
        (
            "That arm's first statement checks the merged autodiff context".into(),
            refused && !wrapped,
        ),
        (
            "There the autodiff context is matched".into(),
            refused && declaration.autodiff() == AutodiffDeclared::CfgOff,
        ),
        (
            "so only Disabled and the fallback arm are left".into(),
            refused && declaration.autodiff() == AutodiffDeclared::CfgOff,
        ),
        (
            "although the declaration lists Autodiff".into(),
            declaration.autodiff() == AutodiffDeclared::CfgOff,
        ),
    ];
    for selector in ["Cube", "Flex"] {
        rules.push((
            format!("DispatchTensorKind::Autodiff({selector}("),
            wrapped && backend == selector,
        ));
        rules.push((
            format!("The input lives on the {selector} backend"),
            backend == selector,
        ));
        for phrase in [
            format!("the op's declaration does not list {selector}"),
            format!("The op's declaration does not list {selector}"),
        ] {
            rules.push((
                phrase,
                backend == selector && !lists_backend(declaration, selector),
            ));
        }
        rules.push((
            format!("The match that picks the backend has no {selector} arm"),
            fallback && backend == selector && !lists_backend(declaration, selector),
        ));
        rules.push((
            format!("even though a {selector} implementation of the op exists"),
            implemented_for(op, selector),
        ));
        rules.push((
            format!("the backend match finds the concrete {selector} arm"),
            backend == selector && lists_backend(declaration, selector),
        ));
    }
    let rules: Vec<Rule> = rules
        .iter()
        .map(|(phrase, holds)| (phrase.as_str(), *holds))
        .collect();
    check_sentence(&kind.meaning(), &rules)?;
    if let Some(surprise) = kind.surprise() {
        check_sentence(surprise, &rules)?;
    }
    Ok(())
}

/// What the fixed run must show for a fix's description to be true; `before`: the declaration
/// the run had before the fix.
pub fn check_fix_description(
    description: &str,
    op: OpKind,
    before: Declaration,
    fixed: &FixedRun,
) -> Result<(), Failed> {
    let ran = fixed.ran();
    let impls = fixed.impls();
    let concrete_only = ran && !impls.is_empty() && !forward_autodiff(&impls);
    let after = fixed.declaration();
    let routing_backend = fixed.routing_backend();
    check_sentence(
        description,
        &[
            (
                "List the Autodiff selector",
                after.autodiff() == AutodiffDeclared::Listed && !before.autodiff().in_build(),
            ),
            (
                "implement the op for Autodiff<B, C>",
                ran && forward_autodiff(&impls),
            ),
            (
                "its Autodiff<B, C> impl must exist too",
                autodiff_impl_exists(op),
            ),
            (
                "the routing then calls that impl",
                ran && forward_autodiff(&impls),
            ),
            (
                "the routing calls the op's Autodiff<B, C> impl",
                ran && forward_autodiff(&impls),
            ),
            (
                "accepts the enabled autodiff context",
                concrete_only && fixed.context() == Some(true),
            ),
            (
                "running the concrete implementation inside it",
                concrete_only && fixed.context() == Some(true),
            ),
            (
                "runs the concrete implementation inside it",
                concrete_only && fixed.context() == Some(true),
            ),
            ("Ints carry no gradient", op.takes_int_input()),
            (
                "so the impl itself is never called",
                ran && !forward_autodiff(&impls) && op.takes_int_input(),
            ),
            (
                "Build with the autodiff feature on",
                after.autodiff() == AutodiffDeclared::CfgOn
                    && before.autodiff() == AutodiffDeclared::CfgOff,
            ),
            ("the cfg holds", after.autodiff() == AutodiffDeclared::CfgOn),
            (
                "the arms it gates are compiled in",
                after.autodiff() == AutodiffDeclared::CfgOn,
            ),
            (
                "Call the op on its input without autodiff",
                fixed.fix() == Fix::WithoutAutodiff,
            ),
            (
                "it runs on the concrete backend",
                concrete_only && fixed.context() == Some(false),
            ),
            (
                "but no gradient flows back through it",
                ran && fixed.no_gradient_through_op(),
            ),
            (
                "Compute the same thing with burn's own tensor ops",
                ran && impls.is_empty() && fixed.builtin_ran(),
            ),
            ("which support autodiff on every backend", ran),
            ("List the Flex selector", after.flex() && !before.flex()),
            (
                "so the routing has an arm for a Flex tensor",
                ran && routing_backend.as_deref() == Some("Flex"),
            ),
            (
                "Create the input on the WebGPU backend, which the op declares",
                ran && fixed.backend() == Some(BackendChoice::Gpu)
                    && routing_backend.as_deref() == Some("Cube"),
            ),
            (
                "Create the input on an autodiff device",
                ran && fixed.input_on_autodiff(),
            ),
            (
                "Declare the shape the kernel returns, the input's",
                ran && after.fusion() == FusionForm::Shape,
            ),
            (
                "Fusion then records the shape the kernel writes, and what uses the output finds it",
                ran && impls.iter().any(|call| call.implementor == "CubeBackend"),
            ),
            (
                "Without a graph there is no gradient to keep.",
                ran && !fixed.input_on_autodiff() && !fixed.require_grad() && fixed.no_gradient(),
            ),
            // What a fix adds where its own change alone would lead into another panic.
            (
                "The input is on the CPU backend (Flex)",
                ran && routing_backend.as_deref() == Some("Flex"),
            ),
            ("which the declaration does not list", !before.flex()),
            ("this fix lists Flex too", after.flex()),
            (
                "The input is on an autodiff device",
                ran && fixed.input_on_autodiff(),
            ),
            (
                "the declaration lists no Autodiff selector",
                before.autodiff() == AutodiffDeclared::Absent,
            ),
            (
                "this fix lists it too",
                after.autodiff() == AutodiffDeclared::Listed,
            ),
            (
                "with the op's Autodiff<B, C> impl",
                autodiff_impl_exists(op),
            ),
            (
                "the declaration's Autodiff sits behind a feature that is off",
                before.autodiff() == AutodiffDeclared::CfgOff,
            ),
            (
                "this fix builds with the feature on too",
                after.autodiff() == AutodiffDeclared::CfgOn,
            ),
            (
                "The input has more than one dimension",
                fixed.input_dims() > 1,
            ),
            (
                "the flattened shape the declaration gives the output is not the kernel's",
                before.fusion() == FusionForm::WrongShape,
            ),
            (
                "this fix declares the kernel's shape too",
                after.fusion() == FusionForm::Shape,
            ),
        ],
    )
}

/// The run of a scenario after a fix: a single run's outcome, or a training run's.
pub enum FixedRun {
    Single(Scenario, Outcome),
    Training(TrainRequest, TrainOutcome),
}

impl FixedRun {
    fn ran(&self) -> bool {
        match self {
            FixedRun::Single(_, outcome) => matches!(outcome, Outcome::Completed(_)),
            FixedRun::Training(_, outcome) => matches!(outcome, TrainOutcome::Trained(_)),
        }
    }

    fn impls(&self) -> Vec<ImplCall> {
        match self {
            FixedRun::Single(_, Outcome::Completed(completed)) => completed.impls.clone(),
            FixedRun::Training(_, TrainOutcome::Trained(report)) => report.impls.clone(),
            _ => Vec::new(),
        }
    }

    fn context(&self) -> Option<bool> {
        let routing = match self {
            FixedRun::Single(_, Outcome::Completed(completed)) => completed.routing_tensor.as_ref(),
            FixedRun::Training(_, TrainOutcome::Trained(report)) => report.routing_tensor.as_ref(),
            _ => None,
        };
        routing.map(|tensor| tensor.autodiff_context)
    }

    fn declaration_autodiff(&self) -> AutodiffDeclared {
        match self {
            FixedRun::Single(scenario, _) => scenario.declaration.autodiff(),
            FixedRun::Training(request, _) => request.declaration.autodiff(),
        }
    }

    fn backend(&self) -> Option<BackendChoice> {
        match self {
            FixedRun::Single(scenario, _) => Some(scenario.backend),
            FixedRun::Training(request, _) => Some(request.backend),
        }
    }

    fn builtin_ran(&self) -> bool {
        match self {
            FixedRun::Single(_, Outcome::Completed(completed)) => completed.route == Route::Builtin,
            FixedRun::Training(_, TrainOutcome::Trained(report)) => report.builtin_ran,
            _ => false,
        }
    }

    /// No gradient flows back through the op: a single run has no gradient; a training run's
    /// float model has parameters before the op that got none (an int op's ids carry none).
    fn no_gradient_through_op(&self) -> bool {
        match self {
            FixedRun::Single(_, Outcome::Completed(completed)) => completed.gradient.is_none(),
            FixedRun::Training(request, TrainOutcome::Trained(report)) => {
                request.op.takes_int_input()
                    || report.params.iter().any(|param| !param.has_gradient)
            }
            _ => false,
        }
    }

    fn no_gradient(&self) -> bool {
        matches!(self, FixedRun::Single(_, Outcome::Completed(completed)) if completed.gradient.is_none())
    }

    fn input_on_autodiff(&self) -> bool {
        match self {
            FixedRun::Single(_, Outcome::Completed(completed)) => completed.input.autodiff,
            FixedRun::Training(_, TrainOutcome::Trained(report)) => report
                .routing_tensor
                .as_ref()
                .is_some_and(|tensor| tensor.autodiff_context),
            _ => false,
        }
    }

    fn panicked_marking_input(&self) -> bool {
        self.panic()
            .is_some_and(|report| report.stage == Some(Stage::RequireGrad))
    }

    fn panic(&self) -> Option<&PanicReport> {
        match self {
            FixedRun::Single(_, Outcome::Panicked(report)) => Some(report),
            FixedRun::Training(_, TrainOutcome::Panicked { report, .. }) => Some(report),
            _ => None,
        }
    }

    fn declaration(&self) -> Declaration {
        match self {
            FixedRun::Single(scenario, _) => scenario.declaration,
            FixedRun::Training(request, _) => request.declaration,
        }
    }

    /// Whether the input is marked `require_grad()` (a training model's are parameters).
    fn require_grad(&self) -> bool {
        match self {
            FixedRun::Single(scenario, _) => scenario.require_grad,
            FixedRun::Training(..) => false,
        }
    }

    fn fix(&self) -> Fix {
        match self {
            FixedRun::Single(scenario, _) => scenario.fix,
            FixedRun::Training(request, _) => request.fix,
        }
    }

    /// The backend of the tensor the generated routing received, when it ran.
    fn routing_backend(&self) -> Option<String> {
        match self {
            FixedRun::Single(_, Outcome::Completed(completed)) => completed
                .routing_tensor
                .as_ref()
                .map(|tensor| tensor.backend.clone()),
            FixedRun::Training(_, TrainOutcome::Trained(report)) => report
                .routing_tensor
                .as_ref()
                .map(|tensor| tensor.backend.clone()),
            _ => None,
        }
    }

    /// The dimensions of the op's input: a single run's tensor; a training model's layers take
    /// [examples, features] batches.
    fn input_dims(&self) -> usize {
        match self {
            FixedRun::Single(scenario, _) => scenario.args.shape().len(),
            FixedRun::Training(..) => 2,
        }
    }

    /// The fallback arm fired for a routing tensor on `backend` the declaration does not list.
    fn backend_has_no_arm(&self, backend: &str) -> bool {
        self.panic().is_some_and(|report| {
            report.message.contains("Backend not supported")
                && report
                    .routing_tensor
                    .as_ref()
                    .is_some_and(|tensor| tensor.backend == backend)
                && !lists_backend(self.declaration(), backend)
        })
    }

    /// The fallback arm fired for a wrapped routing tensor on a listed backend.
    fn wrapped_has_no_arm(&self) -> bool {
        self.panic().is_some_and(|report| {
            report.message.contains("Backend not supported")
                && report.routing_tensor.as_ref().is_some_and(|tensor| {
                    tensor.autodiff_wrapped && lists_backend(self.declaration(), &tensor.backend)
                })
        })
    }
}

/// Each non-empty line of `snippet` is a line of `code`, in order.
fn in_order(code: &str, snippet: &str) -> bool {
    let mut lines = code.lines().map(str::trim);
    snippet
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .all(|wanted| lines.any(|line| line == wanted))
}

/// The scenario after pressing a fix button: the page's own actions on the page's own form.
fn fixed_form(form: &Form, offer: &FixOffer) -> Form {
    let mut fixed = form.clone();
    offer.apply(&mut fixed);
    fixed
}

/// A fix must lead to a run without a panic: it is offered as one.
fn check_fix_ran(offer: &FixOffer, fixed: &FixedRun) -> Result<(), Failed> {
    if fixed.ran() {
        return Ok(());
    }
    let what = match fixed {
        FixedRun::Single(_, Outcome::Panicked(report))
        | FixedRun::Training(_, TrainOutcome::Panicked { report, .. }) => {
            format!("panics: {}", report.message)
        }
        FixedRun::Single(_, outcome) => format!("ends {outcome:?}"),
        FixedRun::Training(_, outcome) => format!("ends {outcome:?}"),
    };
    Err(format!("the fix “{}” leads to a run that {what}", offer.label).into())
}

/// One fix offered for the single run of `form` (`scenario`, whose exported project is
/// `before`): the scenario its button leads to must differ, run without a panic, make its
/// description true, and hold its code.
pub fn check_offer(
    form: &Form,
    scenario: &Scenario,
    before: &Project,
    offer: &FixOffer,
    run: &dyn Fn(&Scenario) -> Outcome,
) -> Result<(), Failed> {
    let fixed_scenario = fixed_form(form, offer)
        .scenario()
        .map_err(|_| "the fixed form does not parse")?;
    if fixed_scenario == *scenario {
        return Err(format!("the fix “{}” changes nothing", offer.label).into());
    }
    let fixed = FixedRun::Single(fixed_scenario.clone(), run(&fixed_scenario));
    check_fix_ran(offer, &fixed)?;
    check_fix_description(
        &offer.description,
        scenario.args.kind(),
        scenario.declaration,
        &fixed,
    )
    .map_err(|error| format!("fix “{}”: {}", offer.label, error.message().unwrap_or("")))?;
    check_fix_code(offer, before, &export(&fixed_scenario, None))
}

/// The page's offers for a single run's panic.
pub fn single_offers(scenario: &Scenario, report: &PanicReport) -> Vec<FixOffer> {
    let kind = PanicKind::of(report, scenario.declaration);
    fixes(&kind, &FixContext::single_run(scenario, true))
}

/// A single-run cell: the route and gradient sentences, or the panic's meaning, surprise and
/// fixes (each fix against the run of the scenario it produces, `run`), and each fix's code in
/// the exported projects of the scenario before and after.
pub fn check_single(
    form: &Form,
    scenario: &Scenario,
    outcome: &Outcome,
    run: &dyn Fn(&Scenario) -> Outcome,
) -> Result<(), Failed> {
    match outcome {
        Outcome::Completed(completed) => check_completed(scenario, completed),
        Outcome::Panicked(report) => {
            let kind = PanicKind::of(report, scenario.declaration);
            let offers = fixes(&kind, &FixContext::single_run(scenario, true));
            let labels: Vec<&str> = offers.iter().map(|offer| offer.label.as_str()).collect();
            check_meaning(
                scenario.args.kind(),
                scenario.declaration,
                report,
                &kind,
                &labels,
            )?;
            let before = export(scenario, None);
            for offer in &offers {
                check_offer(form, scenario, &before, offer, run)?;
            }
            Ok(())
        }
        // The card's sentence is the outcome itself; its fix must reach a line that builds and
        // runs the op.
        Outcome::NotBuilt { .. } => {
            let Some(fixed) = list_fusion_fix(scenario.args.kind(), scenario.declaration) else {
                return Ok(());
            };
            let mut fixed_form = form.clone();
            fixed_form.declaration = fixed;
            let fixed_scenario = fixed_form
                .scenario()
                .map_err(|_| "the fixed form does not parse")?;
            if let Outcome::NotBuilt { .. } = run(&fixed_scenario) {
                return Err(format!("the fix's line {fixed:?} does not build either").into());
            }
            // The fix's words, against the fixed line's exported project and its expansion.
            let op = scenario.args.kind();
            let project = export(&fixed_scenario, None);
            let code = project.file("src/main.rs").unwrap_or("");
            let attribute = fusion_attribute(op, fixed.fusion()).unwrap_or_default();
            let generated = expanded::source(op, fixed).unwrap_or("");
            check_sentence(
                &list_fusion_fix_text(op, fixed),
                &[
                    (
                        &format!("Declare #[backend_extension({})]", fixed.selectors()),
                        code.contains(&format!("#[backend_extension({})]", fixed.selectors())),
                    ),
                    (
                        &format!("with {attribute} on the method"),
                        !attribute.is_empty()
                            && code.contains(&format!("    {attribute}\n    fn ")),
                    ),
                    (
                        "implement the op for CubeBackend",
                        code.contains(" for CubeBackend {"),
                    ),
                    ("the backend under fusion", cfg!(feature = "fusion")),
                    (
                        "the macro then generates the Fusion<B> impl",
                        generated.contains("for burn::backend::fusion::Fusion<B>"),
                    ),
                ],
            )
        }
        Outcome::Failed(reason) => Err(format!("the run failed: {reason}").into()),
    }
}

/// A fix's code is the exported projects' code: each change's `before` in the project of the
/// scenario as it was, its `after` in the project of the fixed one. The feature change is two
/// commands of the project's README.
fn check_fix_code(offer: &FixOffer, before: &Project, after: &Project) -> Result<(), Failed> {
    let before_main = before.file("src/main.rs").unwrap_or("");
    let after_main = after.file("src/main.rs").unwrap_or("");
    let readme = before.file("README.md").unwrap_or("");
    for change in &offer.changes {
        if change.before.starts_with("$ ") {
            for command in [&change.before, &change.after] {
                let command = command.trim_start_matches("$ ");
                if !readme.contains(&format!("`{command}`"))
                    && !readme.contains(&format!("{command}\n"))
                {
                    return Err(format!("the README does not give `{command}`").into());
                }
            }
            continue;
        }
        if !in_order(before_main, &change.before) {
            return Err(format!(
                "fix “{}”: its before code is not the exported project's:\n{}",
                offer.label, change.before
            )
            .into());
        }
        if !in_order(after_main, &change.after) {
            return Err(format!(
                "fix “{}”: its after code is not the fixed project's:\n{}",
                offer.label, change.after
            )
            .into());
        }
        // What the change removes is gone (a change that only adds keeps its before code).
        if !in_order(&change.after, &change.before) && in_order(after_main, &change.before) {
            return Err(format!(
                "fix “{}”: its before code is still in the fixed project:\n{}",
                offer.label, change.before
            )
            .into());
        }
    }
    if offer.changes.is_empty() {
        return Err(format!("fix “{}” shows no code", offer.label).into());
    }
    Ok(())
}

/// Numbers in a sentence, in order (`2.39`, `4.96e-10`, `20`), read as f64.
fn numbers(sentence: &str) -> Vec<f64> {
    sentence
        .split(|c: char| !(c.is_ascii_digit() || c == '.' || c == 'e' || c == '-'))
        .filter_map(|token| token.trim_end_matches('.').parse::<f64>().ok())
        .collect()
}

/// `shown` is `value` to three significant digits.
fn close(shown: f64, value: f64) -> bool {
    (shown - value).abs() <= value.abs() * 5e-3 + f64::MIN_POSITIVE
}

/// A training run's heading: each part is the request's (op, declaration, call, steps,
/// optimizer, learning rate) or the backend the run was on.
fn check_heading(request: &TrainRequest, backend: BackendChoice) -> Result<(), Failed> {
    let settings = &request.settings;
    check_sentence(
        &request_text(request, Some(backend)),
        &[
            (request.op.name(), true),
            (
                &format!("#[backend_extension({})]", request.declaration.selectors()),
                true,
            ),
            ("called as written", request.fix == Fix::None),
            (
                "on x.without_autodiff()",
                request.fix == Fix::WithoutAutodiff,
            ),
            ("replaced by builtin ops", request.fix == Fix::Builtin),
            ("· WebGPU ·", backend == BackendChoice::Gpu),
            ("· CPU ·", backend == BackendChoice::Cpu),
            (&format!("{} steps", settings.steps), true),
            (
                "Adam at learning rate",
                settings.optimizer == OptimizerChoice::Adam,
            ),
            (
                "SGD at learning rate",
                settings.optimizer == OptimizerChoice::Sgd,
            ),
            (&format!("learning rate {}", settings.learning_rate), true),
        ],
    )
}

/// A trained cell: the heading, the end, the loss and parameter sentences.
pub fn check_training(request: &TrainRequest, report: &TrainReport) -> Result<(), Failed> {
    check_heading(request, report.backend)?;
    // The model's numbers are the engine's own constants; its parts, the parameters the run
    // reported.
    const MODEL: &str = include_str!("../../src/engine/train/model.rs");
    let param = |name: &str| report.params.iter().any(|param| param.name == name);
    check_sentence(
        &model_text(request.op),
        &[
            (
                &format!("scale(linear(x), {SCALE_FACTOR})"),
                request.op == OpKind::Scale,
            ),
            (
                &format!(
                    "A 1 → {HIDDEN} → 1 network with the custom leaky_relu (slope {LEAKY_SLOPE})"
                ),
                request.op == OpKind::LeakyRelu,
            ),
            (
                &format!("the custom int op (+{SHIFT})"),
                request.op == OpKind::ShiftIds,
            ),
            (
                "a linear layer",
                param("linear.weight") || param("output.weight"),
            ),
            ("an offset", param("offset")),
            ("then an embedding lookup", param("embedding.weight")),
            // The model's structure and targets, as the engine's model code writes them.
            (
                "with the op between them",
                MODEL.contains("self.linear.forward(x.clone()),")
                    && MODEL.contains("mse(scaled + self.offset"),
            ),
            ("fit to the line 3x + 1", MODEL.contains("3.0 * x + 1.0")),
            ("fit to |x|", MODEL.contains("x.abs()")),
            (
                "an int op inside a training step",
                request.op.takes_int_input(),
            ),
        ],
    )?;
    let last_step = report.curve.last().map_or(0, |point| point.step);
    check_sentence(
        &end_text(report.end, request.settings.steps),
        &[
            (
                &format!("Trained {} steps.", request.settings.steps),
                report.end == TrainEnd::Completed && last_step == request.settings.steps,
            ),
            (
                "Stopped after step",
                matches!(report.end, TrainEnd::Stopped { .. }),
            ),
            ("Diverged", matches!(report.end, TrainEnd::Diverged { .. })),
        ],
    )?;
    let first = report.curve.first().ok_or("no loss recorded")?;
    let last = report.curve.last().ok_or("no loss recorded")?;
    let (custom_first, custom_last) = (f64::from(first.custom), f64::from(last.custom));
    let builtin_last = f64::from(last.builtin);
    let equal_everywhere = report
        .curve
        .iter()
        .all(|point| point.custom == point.builtin);
    let largest = report
        .curve
        .iter()
        .map(|point| f64::from((point.custom - point.builtin).abs()))
        .fold(0.0_f64, f64::max);
    let any_nan = report
        .curve
        .iter()
        .any(|point| point.custom.is_nan() || point.builtin.is_nan());
    let text = loss_text(report).ok_or("no loss sentence")?;
    for sentence in text.split_inclusive(". ") {
        let values = numbers(sentence);
        let number = |index: usize| values.get(index).copied().unwrap_or(f64::NAN);
        check_sentence(
            sentence,
            &[
                (
                    "The custom model's loss fell from",
                    custom_last < custom_first
                        && close(number(0), custom_first)
                        && number(1) == f64::from(first.step)
                        && close(number(2), custom_last)
                        && number(3) == f64::from(last.step),
                ),
                (
                    "The custom model's loss rose from",
                    custom_last > custom_first,
                ),
                (
                    "The custom model's loss stayed",
                    custom_last == custom_first,
                ),
                (
                    "The custom model's loss went from",
                    custom_last.is_nan() || custom_first.is_nan(),
                ),
                (
                    "The builtin model's loss is the same at every recorded step.",
                    equal_everywhere,
                ),
                (
                    "The builtin model's loss stays within",
                    !equal_everywhere && close(number(0), largest),
                ),
                (
                    "by then: the custom model's is",
                    custom_last < builtin_last
                        && close(number(0), builtin_last)
                        && close(number(1), builtin_last / custom_last),
                ),
                (
                    "× lower.",
                    close(number(0), builtin_last)
                        && (close(number(1), custom_last / builtin_last)
                            || close(number(1), builtin_last / custom_last)),
                ),
                (
                    "The builtin model's loss got to",
                    close(number(0), builtin_last),
                ),
                ("A loss is NaN", any_nan),
                (
                    "With the builtin fix the custom model calls burn's builtin ops instead of the op",
                    request.fix == Fix::Builtin
                        && report.builtin_ran
                        && report.impls.is_empty()
                        && report.routing_tensor.is_none(),
                ),
                (
                    "their curves cannot tell the op from burn's ops",
                    report.builtin_ran
                        && report.impls.is_empty()
                        && report.routing_tensor.is_none(),
                ),
                (
                    "both models run the same builtin computation",
                    report.builtin_ran
                        && report.impls.is_empty()
                        && report.routing_tensor.is_none(),
                ),
            ],
        )?;
    }
    check_params_sentence(&params_text(&report.params), report)
}

/// A sentence about the parameters of `report`'s custom model.
pub fn check_params_sentence(text: &str, report: &TrainReport) -> Result<(), Failed> {
    let without: Vec<&str> = report
        .params
        .iter()
        .filter(|param| !param.has_gradient)
        .map(|param| param.name.as_str())
        .collect();
    check_sentence(
        text,
        &[
            (
                "Every parameter received a gradient at step 1.",
                without.is_empty(),
            ),
            (
                &format!("No gradient reached {} at step 1.", without.join(", ")),
                !without.is_empty(),
            ),
            (
                "Their values after the last step are their starting values.",
                report
                    .params
                    .iter()
                    .filter(|param| !param.has_gradient)
                    .all(|param| param.unchanged()),
            ),
        ],
    )?;
    // A "No gradient reached …" sentence must name exactly the parameters without one.
    if text.starts_with("No gradient reached") && !without.is_empty() {
        let named = text
            .trim_start_matches("No gradient reached ")
            .split(" at step 1.")
            .next()
            .unwrap_or("");
        if named != without.join(", ") {
            return Err(format!("named {named:?}, but {without:?} got no gradient").into());
        }
    }
    Ok(())
}

/// A training cell that panicked at step 1: its heading, the meaning and the fixes (each against
/// the training run of the fixed request, `train`).
pub fn check_training_panic(
    request: &TrainRequest,
    report: &PanicReport,
    train: &dyn Fn(&TrainRequest) -> TrainOutcome,
) -> Result<(), Failed> {
    let backend = report.backend.ok_or("the panic has no backend")?;
    check_heading(request, backend)?;
    let kind = PanicKind::of(report, request.declaration);
    let context = FixContext {
        op: request.op,
        declaration: request.declaration,
        site: training_call_site(request.op),
        fix: request.fix,
        input: String::new(),
        input_dims: 2,
        grad_context: true,
        backend,
        gpu_available: true,
    };
    let offers = fixes(&kind, &context);
    let labels: Vec<&str> = offers.iter().map(|offer| offer.label.as_str()).collect();
    check_meaning(request.op, request.declaration, report, &kind, &labels)?;
    for offer in &offers {
        let mut form = Form::default();
        form.op = request.op;
        form.declaration = request.declaration;
        form.fix = request.fix;
        form.backend = request.backend;
        offer.apply(&mut form);
        let fixed = TrainRequest {
            declaration: form.declaration,
            fix: form.fix,
            backend: form.backend,
            ..request.clone()
        };
        if fixed == *request {
            return Err(format!("the fix “{}” changes nothing", offer.label).into());
        }
        let run = FixedRun::Training(fixed.clone(), train(&fixed));
        check_fix_ran(offer, &run)?;
        check_fix_description(&offer.description, request.op, request.declaration, &run)
            .map_err(|error| format!("fix “{}”: {}", offer.label, error.message().unwrap_or("")))?;
    }
    Ok(())
}

/// Whether scale's declaration builds in this test binary, decided from the catalog line alone
/// (the matrix and the training tests both expect `NotBuilt` where it does not). Under burn's
/// fusion `Cube` is `Fusion<CubeBackend>`: scale's concrete impl, written against CubeCL's own
/// tensors, is not an impl for it, a line without `Fusion` gets no impl of scale's trait for
/// it, and `#[fusion(default)]` needs a default body, which scale has not.
pub fn scale_builds(declaration: Declaration) -> bool {
    match declaration.fusion() {
        FusionForm::None => !cfg!(feature = "fusion"),
        FusionForm::Default => false,
        FusionForm::Shape | FusionForm::Meta | FusionForm::WrongShape => true,
    }
}
