//! The gallery's cards: each burn snippet raises exactly the message its card is about, and each
//! playground scenario card loads a scenario that does.

use burn_extension_playground::engine::Engine;
use burn_extension_playground::model::gallery_case::GalleryCase;
use burn_extension_playground::model::outcome::{CaseOutcome, Outcome};
use burn_extension_playground::teach::form::Form;
use burn_extension_playground::teach::gallery::{CARDS, CardScenario};

/// One engine for the whole file: burn initialises the wgpu runtime once per process.
fn engine() -> &'static Engine {
    static ENGINE: std::sync::OnceLock<Engine> = std::sync::OnceLock::new();
    ENGINE.get_or_init(|| pollster::block_on(Engine::init(true)))
}

/// The message each snippet raises in burn 0.22.1, and the file of burn that raises it.
fn expected(case: GalleryCase) -> (&'static str, &'static str) {
    match case {
        GalleryCase::CatAcrossBackends => (
            "input tensor `__tensor` is on the wrong backend",
            "burn-dispatch-0.22.1/src/ops/tensor.rs",
        ),
        GalleryCase::BackendMoveOutOfAutodiff => (
            "Cannot move between autodiff and non-autodiff instances.",
            "burn-dispatch-0.22.1/src/ops/tensor.rs",
        ),
        GalleryCase::TransactionAcrossBackends => (
            "Tensor is on the wrong backend (expected Cube).",
            "burn-dispatch-0.22.1/src/ops/transaction.rs",
        ),
        GalleryCase::TransactionAutodiffAcrossBackends => (
            "Autodiff float tensor is on the wrong backend (expected Cube).",
            "burn-dispatch-0.22.1/src/ops/transaction.rs",
        ),
        GalleryCase::TransactionAutodiffThenPlain => (
            "Expected autodiff-wrapped float tensor for backend Cube.",
            "burn-dispatch-0.22.1/src/ops/transaction.rs",
        ),
    }
}

#[test]
fn every_snippet_panics_with_its_message() {
    let engine = engine();
    for case in GalleryCase::ALL {
        let (message, file) = expected(case);
        match pollster::block_on(engine.run_case(case)) {
            CaseOutcome::Panicked(report) => {
                assert_eq!(report.message, message, "{case:?}");
                let location = report.location.expect("a location");
                assert!(location.file.ends_with(file), "{case:?}: {}", location.file);
            }
            other => panic!("{case:?}: expected a panic, got {other:?}"),
        }
    }
}

#[test]
fn snippets_need_the_gpu() {
    let engine = pollster::block_on(Engine::init(false));
    assert!(matches!(
        pollster::block_on(engine.run_case(GalleryCase::CatAcrossBackends)),
        CaseOutcome::Unavailable(_)
    ));
}

#[test]
fn scenario_cards_raise_their_titles_message() {
    let engine = engine();
    let mut checked = 0;
    for card in &CARDS {
        let Some(form) = card.scenario.apply_to(&Form::default()) else {
            continue;
        };
        let scenario = form.scenario().expect("the op's example inputs parse");
        let Outcome::Panicked(report) = pollster::block_on(engine.run(&scenario)) else {
            panic!("{}: expected a panic", card.id);
        };
        let expected = match card.id {
            "backend-not-supported-autodiff" | "backend-not-supported-undeclared" => {
                "not implemented: Backend not supported for custom op `scale`"
            }
            "autodiff-not-supported" => {
                "not implemented: Autodiff not supported for custom op `shift_ids`"
            }
            other => panic!("unexpected scenario card {other}"),
        };
        assert_eq!(report.message, expected, "{}", card.id);
        checked += 1;
    }
    assert_eq!(checked, 3);
}

#[test]
fn unreachable_cards_say_so() {
    let unreachable: Vec<&str> = CARDS
        .iter()
        .filter(|card| matches!(card.scenario, CardScenario::Unreachable(_)))
        .map(|card| card.id)
        .collect();
    assert_eq!(
        unreachable,
        ["operation-not-marked", "autodiff-context-invariant"]
    );
}
