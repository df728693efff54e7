//! The form and its URL form: round trips, hostile links, and the words the page shows.

use burn_extension_playground::model::outcome::{
    Difference, ImplCall, PackedValues, Phase, Stage, Summary, TensorView, Values,
};
use burn_extension_playground::model::scenario::{
    BackendChoice, Declaration, Fix, IntInput, OpArgs, OpKind, Scenario,
};
use burn_extension_playground::teach::form::{Form, OpTexts};
use burn_extension_playground::teach::link::query::{
    MAX_URL_EDITOR_BYTES, MAX_URL_TEXT_BYTES, UrlNotice, UrlProblem,
};
use burn_extension_playground::teach::numbers::{
    csv_text, index_text, last_values_text, page_count, page_label, page_lines, summary_text,
    values_text,
};
use burn_extension_playground::teach::words::present::short_path;
use proptest::prelude::*;

#[test]
fn default_form_is_the_int_op_in_a_training_loop() {
    let scenario = Form::default().scenario().unwrap();
    assert_eq!(
        scenario,
        Scenario {
            args: OpArgs::ShiftIds {
                ids: IntInput {
                    shape: vec![4],
                    values: vec![0, 7, 41, 3].into()
                },
                offset: 1000
            },
            declaration: Declaration::WITHOUT_AUTODIFF,
            grad_context: true,
            require_grad: false,
            fix: Fix::None,
            backend: BackendChoice::Gpu,
            fusion: false,
        }
    );
}

#[test]
fn query_lists_every_setting() {
    assert_eq!(
        Form::default().to_query(),
        "op=shift_ids&declares_autodiff=no&declares_flex=yes&grad=on&require_grad=off&fix=none&backend=gpu&x=0%2C+7%2C+41%2C+3&param=1000&steps=200&lr=0.05&optimizer=adam"
    );
}

#[test]
fn query_round_trips() {
    let mut form = Form::default();
    form.op = OpKind::LeakyRelu;
    form.declaration = Declaration::CubeAutodiff;
    form.grad_context = false;
    form.require_grad = true;
    form.fix = Fix::WithoutAutodiff;
    form.backend = BackendChoice::Cpu;
    form.texts_mut().tensor = "1 & 2; <3>\n=4%".into();
    form.texts_mut().param = "½".to_owned();
    let (read, notices) = Form::from_query(&format!("?{}", form.to_query()));
    assert_eq!(notices, vec![]);
    assert_eq!(read.to_query(), form.to_query());
    assert_eq!(&*read.texts().tensor, "1 & 2; <3>\n=4%");
    assert_eq!(read.op, OpKind::LeakyRelu);
    assert_eq!(read.fix, Fix::WithoutAutodiff);
    assert_eq!(read.declaration, Declaration::CubeAutodiff);
}

#[test]
fn switching_ops_keeps_each_ops_text() {
    let mut form = Form::default();
    form.texts_mut().tensor = "5, 6".into();
    form.op = OpKind::Scale;
    assert_eq!(&*form.texts().tensor, "1, -2, 3.5");
    form.op = OpKind::ShiftIds;
    assert_eq!(&*form.texts().tensor, "5, 6");
}

#[test]
fn texts_in_a_link_belong_to_its_op_wherever_op_appears() {
    let (form, notices) = Form::from_query("x=9,8&param=2&op=scale");
    assert_eq!(notices, vec![]);
    assert_eq!(form.op, OpKind::Scale);
    assert_eq!(&*form.texts().tensor, "9,8");
    assert_eq!(form.texts().param, "2");
}

#[test]
fn an_old_link_naming_the_fix_detach_reads_as_without_autodiff_and_is_written_anew() {
    let (form, notices) = Form::from_query("?op=scale&fix=detach");
    assert_eq!(notices, vec![]);
    assert_eq!(form.fix, Fix::WithoutAutodiff);
    let query = form.to_query();
    assert!(query.contains("fix=without_autodiff"), "{query}");
    assert!(!query.contains("detach"), "{query}");
}

#[test]
fn hostile_links_are_ignored_with_a_notice() {
    let (form, notices) = Form::from_query(
        "?op=<script>alert(1)</script>&grad=maybe&fix=none&fix=builtin&evil=%3Cimg%20src%3Dx%3E&backend=gpu&declares_autodiff=1",
    );
    assert_eq!(form.op, OpKind::ShiftIds);
    assert!(form.grad_context);
    assert_eq!(form.fix, Fix::Builtin);
    assert_eq!(form.declaration, Declaration::WITHOUT_AUTODIFF);
    let problems: Vec<(&str, UrlProblem)> = notices
        .iter()
        .map(|notice| (notice.key.as_str(), notice.problem))
        .collect();
    assert_eq!(
        problems,
        vec![
            ("op", UrlProblem::BadValue),
            ("grad", UrlProblem::BadValue),
            ("fix", UrlProblem::Repeated),
            ("evil", UrlProblem::UnknownKey),
            ("declares_autodiff", UrlProblem::BadValue),
        ]
    );
    assert_eq!(
        notices[3].to_string(),
        "Ignored “evil” in the link: not a playground setting."
    );
}

#[test]
fn a_fusion_form_without_fusion_on_is_dropped_with_a_notice() {
    let (form, notices) = Form::from_query("?op=scale&declares_autodiff=yes&declares_fusion=shape");
    assert!(!form.fusion);
    assert_eq!(form.declaration, Declaration::WITH_AUTODIFF);
    assert_eq!(notices.len(), 1);
    assert_eq!(
        notices[0].to_string(),
        "Ignored “declares_fusion” in the link: the Fusion selector needs burn's fusion feature (fusion=on)."
    );
    // With fusion on, the same link keeps the form.
    let (form, notices) =
        Form::from_query("?op=scale&declares_autodiff=yes&fusion=on&declares_fusion=shape");
    assert_eq!(notices, vec![]);
    assert!(form.fusion);
    assert_eq!(form.declaration, Declaration::CubeFlexAutodiffFusion);
}

#[test]
fn the_editors_text_rides_in_the_link_up_to_its_cap() {
    let mut form = Form::default();
    let text = "#[backend_extension(Cube, Flex)]\npub trait A: Backend { fn a(x: FloatTensor<Self>) -> FloatTensor<Self>; } // <script>&amp;%\n";
    form.editor = Some(text.to_owned());
    let query = form.to_query();
    assert!(query.ends_with("&optimizer=adam&code=%23%5Bbackend_extension%28Cube%2C+Flex%29%5D%0Apub+trait+A%3A+Backend+%7B+fn+a%28x%3A+FloatTensor%3CSelf%3E%29+-%3E+FloatTensor%3CSelf%3E%3B+%7D+%2F%2F+%3Cscript%3E%26amp%3B%25%0A"), "{query}");
    let (read, notices) = Form::from_query(&query);
    assert_eq!(notices, vec![]);
    assert_eq!(read.editor.as_deref(), Some(text));
    assert!(!form.link_omits_editor());

    // Longer than a link carries: left out of the link, said so; refused when read.
    form.editor = Some("x".repeat(MAX_URL_EDITOR_BYTES + 1));
    assert!(form.link_omits_editor());
    assert!(!form.to_query().contains("code="));
    let (read, notices) =
        Form::from_query(&format!("code={}", "x".repeat(MAX_URL_EDITOR_BYTES + 1)));
    assert_eq!(read.editor, None);
    assert_eq!(
        notices,
        vec![UrlNotice {
            key: "code".into(),
            problem: UrlProblem::TooLong
        }]
    );
}

#[test]
fn oversized_values_and_keys_are_refused() {
    let long = "1,".repeat(MAX_URL_TEXT_BYTES);
    let (form, notices) = Form::from_query(&format!("x={long}&grad=off"));
    assert_eq!(form.texts().tensor, Form::default().texts().tensor);
    assert!(!form.grad_context);
    assert_eq!(
        notices,
        vec![UrlNotice {
            key: "x".into(),
            problem: UrlProblem::TooLong
        }]
    );
    let key = "k".repeat(100);
    let (_, notices) = Form::from_query(&format!("{key}=1"));
    assert_eq!(notices[0].key, format!("{}…", "k".repeat(32)));
}

proptest! {
    #[test]
    fn any_query_reads_without_panicking(query in any::<String>()) {
        let (form, _) = Form::from_query(&query);
        // Whatever was read writes back as a link that reads back the same.
        let (again, notices) = Form::from_query(&form.to_query());
        prop_assert_eq!(notices, vec![]);
        prop_assert_eq!(again, form);
    }
}

#[test]
fn values_are_shown_exactly_and_cut_when_long() {
    assert_eq!(
        values_text(&Values::Float(vec![2.5, -5.0, 8.75, 0.1]), 4),
        "2.5, -5, 8.75, 0.1"
    );
    assert_eq!(values_text(&Values::Int(vec![1000, 1007]), 2), "1000, 1007");
    let long = Values::Int((0..70).collect());
    assert!(values_text(&long, 70).ends_with("63, … (6 more)"));
    // Values cut short before sending: the element count still tells what is missing.
    assert!(
        values_text(&Values::Int((0..64).collect()), 1_000_000).ends_with("63, … (999936 more)")
    );
}

/// A tensor of `shape` holding `0, 1, 2, …` cut for sending as the worker cuts it.
fn counted(shape: Vec<usize>) -> TensorView {
    let elements = shape.iter().product::<usize>() as i64;
    let mut tensor = TensorView::new(
        shape,
        "I32".to_owned(),
        Values::Int((0..elements).collect()),
    );
    tensor.truncate(64, true);
    tensor
}

#[test]
fn a_big_tensor_reads_as_its_summary_its_last_row_and_pages() {
    let tensor = counted(vec![100, 10]);
    assert_eq!(tensor.values.len(), 64);
    assert_eq!(
        summary_text(&tensor.summary.unwrap(), false),
        "min 0 · max 999 · mean ≈ 500 · no NaN or inf"
    );
    assert_eq!(
        last_values_text(&tensor),
        "… (990 before), 990, 991, 992, 993, 994, 995, 996, 997, 998, 999"
    );
    assert_eq!(page_count(1000), 16);
    assert_eq!(page_label(15, 1000), "Values 961–1,000 of 1,000");
    let last_page = page_lines(&tensor, 15);
    assert_eq!(last_page.len(), 5);
    assert_eq!(
        last_page[4],
        (
            "[99, 2]".to_owned(),
            "992, 993, 994, 995, 996, 997, 998, 999".to_owned()
        )
    );
    assert_eq!(index_text(&[100, 10], 999), "[99, 9]");
    assert_eq!(index_text(&[7], 3), "[3]");
    let csv = csv_text(&tensor);
    assert_eq!(csv.lines().count(), 100);
    assert_eq!(
        csv.lines().last(),
        Some("990,991,992,993,994,995,996,997,998,999")
    );
    // A 1-D tensor: a value per line, the last values at most 16.
    let flat = counted(vec![70_000]);
    assert_eq!(csv_text(&flat).lines().nth(69_999), Some("69999"));
    assert!(last_values_text(&flat).starts_with("… (69984 before), 69984, "));
}

#[test]
fn summaries_count_what_is_not_a_number_and_range_the_rest() {
    let values = Values::Float(vec![
        1.5,
        f32::NAN,
        -2.25,
        f32::INFINITY,
        4.0,
        f32::NEG_INFINITY,
    ]);
    let summary = values.summary();
    assert_eq!(
        summary,
        Summary {
            min: Some(-2.25),
            max: Some(4.0),
            mean: Some(3.25 / 3.0),
            nan: 1,
            infinite: 2,
        }
    );
    assert_eq!(
        summary_text(&summary, true),
        "min -2.25 · max 4 · mean ≈ 1.08 · 1 NaN · 2 inf (min, max and mean of the finite values)"
    );
    let nothing_finite = Values::Float(vec![f32::NAN]).summary();
    assert_eq!(
        summary_text(&nothing_finite, true),
        "no finite values · 1 NaN · 0 inf"
    );
    // The extremes of an f32 tensor are written as the f32 values they are.
    assert_eq!(
        summary_text(&Values::Float(vec![0.1, 0.2]).summary(), true),
        "min 0.1 · max 0.2 · mean ≈ 0.15 · no NaN or inf"
    );
}

#[test]
fn packed_values_unpack_to_the_same_values() {
    for values in [
        Values::Float(vec![0.1, -0.0, f32::NAN, 3.4e38]),
        Values::Int(vec![i64::MIN, -1, 0, 1 << 40]),
    ] {
        let packed = PackedValues::pack(&values);
        assert_eq!(packed.len(), 4);
        // NaN is not equal to itself: compare the bits.
        assert_eq!(format!("{:?}", packed.slice(0..4)), format!("{values:?}"));
        assert_eq!(
            format!("{:?}", packed.slice(3..9)),
            format!("{:?}", values.slice(3..4))
        );
    }
    // Short tensors are sent whole and keep no second copy.
    let mut short = TensorView::new(vec![2], "F32".to_owned(), Values::Float(vec![1.0, 2.0]));
    short.truncate(64, true);
    assert_eq!(short.all_values, None);
}

#[test]
fn the_largest_difference_says_where_it_is() {
    let a = Values::Float(vec![1.0, 2.0, 3.0, 4.0]);
    assert_eq!(
        a.difference(&Values::Float(vec![1.0, 2.5, 3.0, 3.5])),
        Some(Difference {
            largest: 0.5,
            at: Some(1),
        })
    );
    assert_eq!(
        a.difference(&a.clone()),
        Some(Difference {
            largest: 0.0,
            at: None,
        })
    );
    let nan = Values::Float(vec![1.0, 2.0, f32::NAN, 9.0])
        .difference(&a)
        .unwrap();
    assert!(nan.largest.is_nan());
    assert_eq!(nan.at, Some(2));
}

#[test]
fn differences_compare_like_with_like() {
    assert_eq!(
        Values::Float(vec![1.0, 2.0]).max_abs_difference(&Values::Float(vec![1.5, 2.0])),
        Some(0.5)
    );
    assert_eq!(
        Values::Float(vec![1.0]).max_abs_difference(&Values::Int(vec![1])),
        None
    );
    assert_eq!(
        Values::Int(vec![1]).max_abs_difference(&Values::Int(vec![1, 2])),
        None
    );
}

/// A NaN difference anywhere makes the largest difference NaN, first or last (`f64::max` folded
/// from 0 would have shown 0 for both).
#[test]
fn a_nan_difference_is_never_agreement() {
    for (a, b) in [
        (vec![f32::NAN, 1.0], vec![1.0, 1.0]),
        (vec![1.0, 2.0], vec![1.0, f32::NAN]),
    ] {
        let difference = Values::Float(a).max_abs_difference(&Values::Float(b));
        assert!(difference.is_some_and(f64::is_nan), "{difference:?}");
    }
}

#[test]
fn registry_paths_start_at_the_crate() {
    assert_eq!(
        short_path(
            "/root/.cargo/registry/src/index.crates.io-1949cf8c6b5b557f/burn-tensor-0.22.1/src/tensor/api/float.rs"
        ),
        "burn-tensor-0.22.1/src/tensor/api/float.rs"
    );
    assert_eq!(short_path("src/ops/scale.rs"), "src/ops/scale.rs");
}

#[test]
fn impl_lines_name_type_op_and_pass() {
    let call = ImplCall {
        op: "scale".into(),
        phase: Phase::Backward,
        stage: Stage::Backward,
        implementor: "CubeBackend".into(),
    };
    assert_eq!(
        burn_extension_playground::teach::words::present::impl_text(&call),
        "CubeBackend::scale (backward)"
    );
}

#[test]
fn routing_messages_are_read_from_the_generated_code() {
    use burn_extension_playground::teach::routing::expanded::{RoutingPanic, panic_prefix};
    assert_eq!(
        panic_prefix(RoutingPanic::Fallback),
        Some("Backend not supported for custom op ")
    );
    assert_eq!(
        panic_prefix(RoutingPanic::ContextRefused),
        Some("Autodiff not supported for custom op ")
    );
}

#[test]
fn protocol_messages_round_trip_as_bytes() {
    use burn_extension_playground::model::protocol::{ToWorker, decode, encode};
    use burn_extension_playground::model::scenario::FloatInput;
    let message = ToWorker::Run {
        id: 7,
        scenario: Scenario {
            args: OpArgs::Scale {
                x: FloatInput {
                    shape: vec![2, 2],
                    values: vec![1.5, -0.0, f32::MAX, 3.0].into(),
                },
                factor: 2.5,
            },
            declaration: Declaration::WITH_AUTODIFF,
            grad_context: true,
            require_grad: true,
            fix: Fix::WithoutAutodiff,
            backend: BackendChoice::Cpu,
            fusion: false,
        },
    };
    let bytes = encode(&message).unwrap();
    assert_eq!(decode::<ToWorker>(&bytes).unwrap(), message);
    assert!(decode::<ToWorker>(&bytes[..bytes.len() - 1]).is_err());
}

mod training_fields {
    use burn_extension_playground::model::scenario::BackendChoice;
    use burn_extension_playground::model::training::{
        LossPoint, OptimizerChoice, ParamReport, TrainEnd, TrainReport, TrainSettings,
    };
    use burn_extension_playground::teach::chart::chart;
    use burn_extension_playground::teach::form::Form;
    use burn_extension_playground::teach::input::settings::{
        TrainField, TrainInputError, TrainTexts, parse_settings,
    };
    use burn_extension_playground::teach::numbers::significant;
    use burn_extension_playground::teach::words::training::{
        end_text, largest_gap, loss_text, params_text,
    };

    fn texts(steps: &str, learning_rate: &str) -> TrainTexts {
        TrainTexts {
            steps: steps.to_owned(),
            learning_rate: learning_rate.to_owned(),
        }
    }

    fn messages(steps: &str, learning_rate: &str) -> Vec<(TrainField, String)> {
        parse_settings(&texts(steps, learning_rate), OptimizerChoice::Adam)
            .err()
            .unwrap_or_default()
            .iter()
            .map(|error| (error.field(), error.to_string()))
            .collect()
    }

    #[test]
    fn good_settings_parse() {
        assert_eq!(
            parse_settings(&texts(" 250 ", "0.01"), OptimizerChoice::Sgd),
            Ok(TrainSettings {
                steps: 250,
                learning_rate: 0.01,
                optimizer: OptimizerChoice::Sgd
            })
        );
        assert_eq!(
            Form::default().train_settings(),
            Ok(TrainSettings {
                steps: 200,
                learning_rate: 0.05,
                optimizer: OptimizerChoice::Adam
            })
        );
    }

    #[test]
    fn bad_settings_get_a_message_next_to_their_field() {
        let steps = |message: &str| vec![(TrainField::Steps, message.to_owned())];
        let rate = |message: &str| vec![(TrainField::LearningRate, message.to_owned())];
        let range = "Steps must be a whole number from 1 to 10,000.";
        assert_eq!(messages("", "0.1"), steps("Enter a number of steps."));
        for bad in ["0", "-5", "10001", "2.5", "NaN", "1e3", "99999999999"] {
            assert_eq!(messages(bad, "0.1"), steps(range), "{bad}");
        }
        assert_eq!(messages("10", " "), rate("Enter a learning rate."));
        for bad in ["NaN", "inf", "-inf", "fast", "1e39"] {
            assert_eq!(
                messages("10", bad),
                rate("The learning rate must be a finite number, like 0.05."),
                "{bad}"
            );
        }
        for bad in ["0", "-0.1", "-0"] {
            assert_eq!(
                messages("10", bad),
                rate("The learning rate must be above 0."),
                "{bad}"
            );
        }
        assert_eq!(
            messages("10", "10.5"),
            rate("The learning rate must be at most 10.")
        );
        assert_eq!(
            messages("0", "0"),
            vec![
                (TrainField::Steps, range.to_owned()),
                (
                    TrainField::LearningRate,
                    "The learning rate must be above 0.".to_owned()
                )
            ]
        );
        assert_eq!(
            TrainInputError::Empty(TrainField::Steps).field(),
            TrainField::Steps
        );
    }

    #[test]
    fn training_settings_live_in_the_link() {
        let mut form = Form::default();
        form.train = texts("75", "0.2");
        form.optimizer = OptimizerChoice::Sgd;
        let (read, notices) = Form::from_query(&form.to_query());
        assert_eq!(notices, vec![]);
        assert_eq!(read.train, texts("75", "0.2"));
        assert_eq!(read.optimizer, OptimizerChoice::Sgd);
    }

    #[test]
    fn the_chart_draws_both_curves_on_a_log_scale_and_skips_losses_it_cannot_draw() {
        let points = [
            LossPoint {
                step: 0,
                custom: 10.0,
                builtin: 10.0,
            },
            LossPoint {
                step: 50,
                custom: 1.0,
                builtin: f32::NAN,
            },
            LossPoint {
                step: 100,
                custom: 0.1,
                builtin: 0.0,
            },
        ];
        let drawn = chart(&points, 100);
        // x from 72 to 588 for steps 0..100; y from 10 (1e1) to 216 (1e-1) over 3 decades.
        assert_eq!(drawn.custom, "72.0,10.0 330.0,113.0 588.0,216.0");
        assert_eq!(drawn.builtin, "72.0,10.0");
        assert!(!drawn.coincide);
        assert_eq!(
            drawn.y_ticks,
            vec![
                (216.0, "1e-1".to_owned()),
                (113.0, "1e0".to_owned()),
                (10.0, "1e1".to_owned())
            ]
        );
        assert_eq!(
            drawn.x_ticks,
            vec![(72.0, "0".to_owned()), (588.0, "100".to_owned())]
        );
    }

    /// Twelve decades of loss get every second power labelled: at most seven labels, never
    /// closer than two decades.
    #[test]
    fn a_tall_chart_labels_every_few_powers() {
        let points = [
            LossPoint {
                step: 1,
                custom: 10.0,
                builtin: 10.0,
            },
            LossPoint {
                step: 2,
                custom: 1e-11,
                builtin: 1e-11,
            },
        ];
        let drawn = chart(&points, 2);
        let labels: Vec<&str> = drawn
            .y_ticks
            .iter()
            .map(|(_, label)| label.as_str())
            .collect();
        assert_eq!(
            labels,
            ["1e-11", "1e-9", "1e-7", "1e-5", "1e-3", "1e-1", "1e1"]
        );
        assert!(drawn.coincide);
    }

    #[test]
    fn endings_and_gradients_read_as_sentences() {
        assert_eq!(end_text(TrainEnd::Completed, 200), "Trained 200 steps.");
        assert_eq!(
            end_text(TrainEnd::Stopped { step: 40 }, 200),
            "Stopped after step 40 of 200."
        );
        let param = |name: &str, has_gradient, start: &[f32], end: &[f32]| ParamReport {
            name: name.to_owned(),
            has_gradient,
            start: start.to_vec(),
            end: end.to_vec(),
        };
        assert_eq!(
            params_text(&[param("a", true, &[1.0], &[0.5])]),
            "Every parameter received a gradient at step 1."
        );
        assert_eq!(
            params_text(&[
                param("hidden.weight", false, &[0.25, -1.0], &[0.25, -1.0]),
                param("hidden.bias", false, &[0.5], &[0.5]),
                param("output.weight", true, &[1.0], &[2.0]),
            ]),
            "No gradient reached hidden.weight, hidden.bias at step 1. Their values after the last step are their starting values."
        );
        // Kept only where the values are equal: a changed one (or a NaN) is said to change.
        assert_eq!(
            params_text(&[
                param("a", false, &[1.0], &[1.0]),
                param("b", false, &[f32::NAN], &[f32::NAN]),
            ]),
            "No gradient reached a, b at step 1. a kept their starting values; b changed all the same."
        );
    }

    fn report(curve: &[(u32, f32, f32)]) -> TrainReport {
        TrainReport {
            curve: curve
                .iter()
                .map(|&(step, custom, builtin)| LossPoint {
                    step,
                    custom,
                    builtin,
                })
                .collect(),
            end: TrainEnd::Completed,
            params: Vec::new(),
            impls: Vec::new(),
            routing_tensor: None,
            builtin_ran: false,
            backend: BackendChoice::Gpu,
            device: String::new(),
            elapsed_ms: 0.0,
        }
    }

    #[test]
    fn the_loss_sentence_reads_the_curves() {
        // The golden without-autodiff-fix cell: the custom loss still falls, only less far.
        assert_eq!(
            loss_text(&report(&[
                (1, 2.39, 2.39),
                (10, 0.474, 0.312),
                (20, 0.188, 0.073)
            ]))
            .unwrap(),
            "The custom model's loss fell from 2.39 at step 1 to 0.188 at step 20. The builtin model's loss got to 0.073 by then: 2.58× lower."
        );
        assert_eq!(
            loss_text(&report(&[(1, 2.0, 2.0), (2, 1.0, 1.0)])).unwrap(),
            "The custom model's loss fell from 2 at step 1 to 1 at step 2. The builtin model's loss is the same at every recorded step."
        );
        assert_eq!(
            loss_text(&report(&[(1, 2.0, 2.0), (2, 3.0, 3.000001)])).unwrap(),
            "The custom model's loss rose from 2 at step 1 to 3 at step 2. The builtin model's loss stays within 9.54e-7 of it at every recorded step."
        );
        assert_eq!(
            loss_text(&report(&[(1, 2.0, 2.0), (2, f32::NAN, 1.0)])).unwrap(),
            "The custom model's loss went from 2 at step 1 to NaN at step 2. A loss is NaN, so the two curves cannot be compared."
        );
        let mut builtin = report(&[(1, 2.0, 2.0), (2, 1.0, 1.0)]);
        builtin.builtin_ran = true;
        assert!(loss_text(&builtin).unwrap().ends_with(
            "so both models run the same builtin computation: their curves cannot tell the op from burn's ops."
        ));
        assert_eq!(loss_text(&report(&[])), None);
    }

    #[test]
    fn a_nan_gap_is_nan() {
        let points = [
            LossPoint {
                step: 1,
                custom: f32::NAN,
                builtin: 1.0,
            },
            LossPoint {
                step: 2,
                custom: 1.0,
                builtin: 1.0,
            },
        ];
        assert!(largest_gap(&points).is_some_and(f32::is_nan));
        assert!(largest_gap(&points[1..]) == Some(0.0));
    }

    #[test]
    fn significant_digits() {
        for (value, text) in [
            (2.391_f32, "2.39"),
            (0.187_64, "0.188"),
            (12.34, "12.3"),
            (4.958_101_7e-10, "4.96e-10"),
            (1_234_567.0, "1.23e6"),
            (2.5, "2.5"),
            (3.0, "3"),
            (0.0, "0"),
            (f32::NAN, "NaN"),
            (-0.000_5, "-5e-4"),
        ] {
            assert_eq!(significant(value), text, "{value}");
        }
    }
}

#[test]
fn the_catalog_spells_each_declaration_as_written() {
    let spelled: Vec<(&str, &str)> = Declaration::ALL
        .iter()
        .map(|declaration| (declaration.module(), declaration.selectors()))
        .collect();
    assert_eq!(
        spelled,
        vec![
            ("cube_flex", "Cube, Flex"),
            ("cube_flex_autodiff", "Cube, Flex, Autodiff"),
            (
                "cube_flex_autodiff_cfg",
                "Cube, Flex, Autodiff: cfg(feature = \"autodiff\")"
            ),
            (
                "cube_flex_autodiff_cfg_on",
                "Cube, Flex, Autodiff: cfg(feature = \"autodiff\")"
            ),
            ("cube", "Cube"),
            ("cube_autodiff", "Cube, Autodiff"),
            (
                "cube_autodiff_cfg",
                "Cube, Autodiff: cfg(feature = \"autodiff\")"
            ),
            (
                "cube_autodiff_cfg_on",
                "Cube, Autodiff: cfg(feature = \"autodiff\")"
            ),
            ("cube_flex_fusion", "Cube, Flex, Fusion"),
            ("cube_flex_autodiff_fusion", "Cube, Flex, Autodiff, Fusion"),
            (
                "cube_flex_autodiff_fusion_meta",
                "Cube, Flex, Autodiff, Fusion"
            ),
            (
                "cube_flex_autodiff_fusion_default",
                "Cube, Flex, Autodiff, Fusion"
            ),
            (
                "cube_flex_autodiff_fusion_flat",
                "Cube, Flex, Autodiff, Fusion"
            ),
        ]
    );
    assert_eq!(
        Declaration::CubeFlexAutodiffCfg.backend_tag("Flex"),
        Some(1)
    );
    assert_eq!(Declaration::CubeAutodiffCfg.backend_tag("Flex"), None);
}

mod explanations_from_facts {
    use burn_extension_playground::model::outcome::{PanicReport, RoutingTensor};
    use burn_extension_playground::model::scenario::Declaration;
    use burn_extension_playground::teach::words::explain::PanicKind;

    fn report(message: &str, backend: &str, wrapped: bool, context: bool) -> PanicReport {
        PanicReport {
            message: message.to_owned(),
            location: None,
            impls: vec![],
            routing_tensor: Some(RoutingTensor {
                backend: backend.to_owned(),
                autodiff_wrapped: wrapped,
                autodiff_context: context,
            }),
            training_step: None,
            stage: None,
            backend: None,
        }
    }

    /// The page asked for WebGPU, but there was none and the run went to the CPU: the
    /// explanation follows the tensor the routing received, not the toggle.
    #[test]
    fn the_backend_named_is_the_routing_tensors_not_the_toggles() {
        let kind = PanicKind::of(
            &report(
                "not implemented: Backend not supported for custom op `scale`",
                "Flex",
                false,
                false,
            ),
            Declaration::Cube,
        );
        assert_eq!(
            kind,
            PanicKind::BackendHasNoArm {
                backend: "Flex".to_owned(),
                wrapped: false,
            }
        );
        assert!(
            kind.meaning()
                .starts_with("The input lives on the Flex backend")
        );
    }

    /// The same message, from a wrapped tensor: the missing arm is the autodiff one.
    #[test]
    fn a_wrapped_routing_tensor_is_the_missing_autodiff_arm() {
        let message = "not implemented: Backend not supported for custom op `scale`";
        assert_eq!(
            PanicKind::of(&report(message, "Cube", true, true), Declaration::CubeFlex),
            PanicKind::WrappedTensorHasNoArm {
                backend: "Cube".to_owned(),
                cfg_off: false
            }
        );
        assert_eq!(
            PanicKind::of(
                &report(message, "Flex", true, true),
                Declaration::CubeFlexAutodiffCfg
            ),
            PanicKind::WrappedTensorHasNoArm {
                backend: "Flex".to_owned(),
                cfg_off: true
            }
        );
    }

    /// A wrapped Flex tensor and a declaration without Flex: the missing arm is Flex's, even
    /// though the declaration lists Autodiff (the message is the same as for a missing autodiff
    /// arm).
    #[test]
    fn a_backend_the_declaration_does_not_list_is_named_first() {
        let message = "not implemented: Backend not supported for custom op `scale`";
        let kind = PanicKind::of(
            &report(message, "Flex", true, true),
            Declaration::CubeAutodiff,
        );
        assert_eq!(
            kind,
            PanicKind::BackendHasNoArm {
                backend: "Flex".to_owned(),
                wrapped: true
            }
        );
        assert!(kind.meaning().contains("does not list Flex"));
    }

    /// `require_grad()` is recognised by the step the run recorded, not by its message.
    #[test]
    fn the_require_grad_panic_is_read_from_the_recorded_step() {
        use burn_extension_playground::model::outcome::Stage;
        let mut marking = report("any message at all", "Cube", false, false);
        marking.routing_tensor = None;
        marking.stage = Some(Stage::RequireGrad);
        assert_eq!(
            PanicKind::of(&marking, Declaration::CubeFlex),
            PanicKind::RequireGradOutsideAutodiff
        );
        marking.stage = Some(Stage::Forward);
        assert_eq!(
            PanicKind::of(&marking, Declaration::CubeFlex),
            PanicKind::Other
        );
    }

    #[test]
    fn without_recorded_facts_nothing_is_guessed() {
        let mut bare = report(
            "not implemented: Backend not supported for custom op `scale`",
            "Cube",
            true,
            true,
        );
        bare.routing_tensor = None;
        assert_eq!(
            PanicKind::of(&bare, Declaration::CubeFlex),
            PanicKind::Other
        );
    }
}

mod routing_diff {
    use burn_extension_playground::model::scenario::{Declaration, OpKind};
    use burn_extension_playground::teach::routing::diff::{Change, routing_diff};
    use burn_extension_playground::teach::routing::expanded;

    /// For every op and every pair of declarations, the diff's lines give back both expansions:
    /// the unchanged and added lines the shown one, the unchanged and removed lines the compared
    /// one, each shown line with its own index.
    #[test]
    fn every_diff_gives_back_both_expansions() {
        for op in OpKind::ALL {
            for &shown in Declaration::ALL {
                for &compared in Declaration::ALL {
                    let diff = routing_diff(op, shown, compared).expect("both are shipped");
                    let side = |keep: Change| -> Vec<&str> {
                        diff.lines
                            .iter()
                            .filter(|line| line.change == Change::Same || line.change == keep)
                            .map(|line| line.text.as_str())
                            .collect()
                    };
                    let new: Vec<&str> = expanded::source(op, shown).unwrap().lines().collect();
                    let old: Vec<&str> = expanded::source(op, compared).unwrap().lines().collect();
                    assert_eq!(side(Change::Added), new, "{op:?} {shown:?} vs {compared:?}");
                    assert_eq!(
                        side(Change::Removed),
                        old,
                        "{op:?} {shown:?} vs {compared:?}"
                    );
                    for line in &diff.lines {
                        if line.change != Change::Removed {
                            assert_eq!(line.line.map(|index| new[index]), Some(line.text.as_str()));
                        }
                    }
                    if shown == compared {
                        assert_eq!(
                            diff.summary,
                            "The two declarations generate the same routing, line for line."
                        );
                    }
                }
            }
        }
    }

    /// Listing Flex adds the backend match's second arm, which the generated code names by its
    /// tag: the summary says so, and counts the lines.
    #[test]
    fn the_summary_names_the_arms_that_appear() {
        let diff = routing_diff(OpKind::Scale, Declaration::CubeFlex, Declaration::Cube).unwrap();
        let count = |declaration, needle: &str| {
            expanded::source(OpKind::Scale, declaration)
                .unwrap()
                .lines()
                .filter(|line| line.trim().starts_with(needle))
                .count()
        };
        assert_eq!(
            count(Declaration::Cube, "(1usize, __has_float_input) =>"),
            0
        );
        assert_eq!(
            count(Declaration::CubeFlex, "(1usize, __has_float_input) =>"),
            1
        );
        let adds = diff.summary.split("Arms it adds: ").nth(1).unwrap_or("");
        assert!(
            adds.contains("`(1usize, __has_float_input)`"),
            "{}",
            diff.summary
        );
        let added = diff
            .lines
            .iter()
            .filter(|line| line.change == Change::Added)
            .count();
        assert!(
            diff.summary.contains(&format!("{added} lines added")),
            "{}",
            diff.summary
        );
        // The other way round, the same arm is dropped.
        let back = routing_diff(OpKind::Scale, Declaration::Cube, Declaration::CubeFlex).unwrap();
        let drops = back.summary.split("Arms it drops: ").nth(1).unwrap_or("");
        assert!(
            drops.contains("`(1usize, __has_float_input)`"),
            "{}",
            back.summary
        );
    }
}

#[test]
fn texts_are_equal_by_content_whether_their_tensor_text_is_shared_or_not() {
    let typed = OpTexts {
        tensor: "1, 2".into(),
        param: "3".to_owned(),
    };
    assert_eq!(typed, typed.clone());
    let retyped = OpTexts {
        tensor: "1, 2".into(),
        param: "3".to_owned(),
    };
    assert_eq!(typed, retyped);
    let other_tensor = OpTexts {
        tensor: "1, 3".into(),
        param: "3".to_owned(),
    };
    assert_ne!(typed, other_tensor);
    let other_param = OpTexts {
        tensor: typed.tensor.clone(),
        param: "4".to_owned(),
    };
    assert_ne!(typed, other_param);
}
