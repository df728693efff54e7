//! The form and its URL form: round trips, hostile links, and the words the page shows.

use burn_extension_playground::model::outcome::{ImplCall, Phase, Values};
use burn_extension_playground::model::scenario::{
    BackendChoice, Declaration, Fix, IntInput, OpArgs, OpKind, Scenario,
};
use burn_extension_playground::teach::form::{Form, MAX_URL_TEXT_BYTES, UrlNotice, UrlProblem};
use burn_extension_playground::teach::present::{short_path, values_text};
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
                    values: vec![0, 7, 41, 3]
                },
                offset: 1000
            },
            declaration: Declaration::WITHOUT_AUTODIFF,
            grad_context: true,
            require_grad: false,
            fix: Fix::None,
            backend: BackendChoice::Gpu,
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
    form.fix = Fix::Detach;
    form.backend = BackendChoice::Cpu;
    form.texts_mut().tensor = "1 & 2; <3>\n=4%".to_owned();
    form.texts_mut().param = "½".to_owned();
    let (read, notices) = Form::from_query(&format!("?{}", form.to_query()));
    assert_eq!(notices, vec![]);
    assert_eq!(read.to_query(), form.to_query());
    assert_eq!(read.texts().tensor, "1 & 2; <3>\n=4%");
    assert_eq!(read.op, OpKind::LeakyRelu);
    assert_eq!(read.fix, Fix::Detach);
    assert_eq!(read.declaration, Declaration::CubeAutodiff);
}

#[test]
fn switching_ops_keeps_each_ops_text() {
    let mut form = Form::default();
    form.texts_mut().tensor = "5, 6".to_owned();
    form.op = OpKind::Scale;
    assert_eq!(form.texts().tensor, "1, -2, 3.5");
    form.op = OpKind::ShiftIds;
    assert_eq!(form.texts().tensor, "5, 6");
}

#[test]
fn texts_in_a_link_belong_to_its_op_wherever_op_appears() {
    let (form, notices) = Form::from_query("x=9,8&param=2&op=scale");
    assert_eq!(notices, vec![]);
    assert_eq!(form.op, OpKind::Scale);
    assert_eq!(form.texts().tensor, "9,8");
    assert_eq!(form.texts().param, "2");
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
        implementor: "CubeBackend".into(),
    };
    assert_eq!(
        burn_extension_playground::teach::present::impl_text(&call),
        "CubeBackend::scale (backward)"
    );
}

#[test]
fn routing_messages_are_read_from_the_generated_code() {
    use burn_extension_playground::teach::expanded::{RoutingPanic, panic_prefix};
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
                    values: vec![1.5, -0.0, f32::MAX, 3.0],
                },
                factor: 2.5,
            },
            declaration: Declaration::WITH_AUTODIFF,
            grad_context: true,
            require_grad: true,
            fix: Fix::Detach,
            backend: BackendChoice::Cpu,
        },
    };
    let bytes = encode(&message).unwrap();
    assert_eq!(decode::<ToWorker>(&bytes).unwrap(), message);
    assert!(decode::<ToWorker>(&bytes[..bytes.len() - 1]).is_err());
}

mod training_fields {
    use burn_extension_playground::model::training::{
        LossPoint, OptimizerChoice, ParamGradient, TrainEnd, TrainSettings,
    };
    use burn_extension_playground::teach::form::Form;
    use burn_extension_playground::teach::training::{
        TrainField, TrainInputError, TrainTexts, chart, end_text, gradients_text, parse_settings,
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
        // x from 52 to 588 for steps 0..100; y from 10 (1e1) to 216 (1e-1) over 3 decades.
        assert_eq!(drawn.custom, "52.0,10.0 320.0,113.0 588.0,216.0");
        assert_eq!(drawn.builtin, "52.0,10.0");
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
            vec![(52.0, "0".to_owned()), (588.0, "100".to_owned())]
        );
    }

    #[test]
    fn endings_and_gradients_read_as_sentences() {
        assert_eq!(end_text(TrainEnd::Completed, 200), "Trained 200 steps.");
        assert_eq!(
            end_text(TrainEnd::Stopped { step: 40 }, 200),
            "Stopped after step 40 of 200."
        );
        let param = |name: &str, has_gradient| ParamGradient {
            name: name.to_owned(),
            has_gradient,
        };
        assert_eq!(
            gradients_text(&[param("a", true)]),
            "Every parameter received a gradient."
        );
        assert!(
            gradients_text(&[
                param("hidden.weight", false),
                param("hidden.bias", false),
                param("output.weight", true)
            ])
            .starts_with("No gradient reached hidden.weight, hidden.bias: frozen")
        );
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
            ("cube", "Cube"),
            ("cube_autodiff", "Cube, Autodiff"),
            (
                "cube_autodiff_cfg",
                "Cube, Autodiff: cfg(feature = \"autodiff\")"
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
    use burn_extension_playground::teach::explain::PanicKind;

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
                backend: "Flex".to_owned()
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
