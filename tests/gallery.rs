//! The gallery's cards: each burn snippet raises exactly the message its card is about, and each
//! playground scenario card loads a scenario that does.

use burn_extension_playground::engine::Engine;
use burn_extension_playground::model::gallery_case::GalleryCase;
use burn_extension_playground::model::outcome::{CaseOutcome, Outcome};
use burn_extension_playground::teach::form::Form;
use burn_extension_playground::teach::words::gallery::{CARDS, CardScenario};

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
                "not implemented: Backend not supported for custom op `leaky_relu`"
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

/// Each card shows the lines the engine runs for it: cut from the engine's own source, between
/// markers, so they cannot be a second copy (here: they are found, whole, in that source).
#[test]
fn each_snippet_is_the_engines_code() {
    use burn_extension_playground::teach::words::gallery::snippet;
    let source = include_str!("../src/engine/gallery.rs");
    let squeeze = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    for case in GalleryCase::ALL {
        let shown = snippet(case);
        assert!(shown.lines().count() >= 2, "{case:?}: {shown:?}");
        assert!(
            !shown.contains("// "),
            "{case:?}: a marker leaked in: {shown:?}"
        );
        assert!(squeeze(source).contains(&squeeze(&shown)), "{case:?}");
    }
}

/// The autodiff-check card cites routing.rs:1126 of burn-backend-extension 0.22.1: that line of
/// the registry's source is the template's refusal.
#[test]
fn the_cited_line_is_the_autodiff_check() {
    let home = std::env::var_os("CARGO_HOME")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            std::path::PathBuf::from(std::env::var_os("HOME").unwrap()).join(".cargo")
        });
    let registry = home.join("registry/src");
    let line = std::fs::read_dir(&registry)
        .expect("the cargo registry")
        .filter_map(|index| {
            std::fs::read_to_string(
                index
                    .ok()?
                    .path()
                    .join("burn-backend-extension-0.22.1/src/routing.rs"),
            )
            .ok()
        })
        .next()
        .expect("burn-backend-extension 0.22.1 in the registry")
        .lines()
        .nth(1125)
        .map(str::to_owned)
        .unwrap_or_default();
    assert!(
        line.contains("Autodiff not supported for custom op"),
        "{line}"
    );
    let card = CARDS
        .iter()
        .find(|card| card.id == "autodiff-not-supported")
        .unwrap();
    assert!(
        card.explanation
            .contains("routing.rs:1126 of burn-backend-extension 0.22.1")
    );
}
