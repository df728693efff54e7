//! The form and its URL form: round trips, hostile links, and the words the page shows.

use burn_extension_playground::form::{Form, MAX_URL_TEXT_BYTES, UrlNotice, UrlProblem};
use burn_extension_playground::outcome::{ImplCall, Phase, Values};
use burn_extension_playground::present::{max_abs_difference, short_path, values_text};
use burn_extension_playground::scenario::{
    BackendChoice, Declaration, Fix, IntInput, OpArgs, OpKind, Scenario,
};
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
        "op=shift_ids&declares_autodiff=no&declares_flex=yes&grad=on&require_grad=off&fix=none&backend=gpu&x=0%2C+7%2C+41%2C+3&param=1000"
    );
}

#[test]
fn query_round_trips() {
    let mut form = Form::default();
    form.op = OpKind::LeakyRelu;
    form.declaration = Declaration {
        autodiff: true,
        flex: false,
    };
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
    assert_eq!(
        read.declaration,
        Declaration {
            autodiff: true,
            flex: false
        }
    );
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
        max_abs_difference(
            &Values::Float(vec![1.0, 2.0]),
            &Values::Float(vec![1.5, 2.0])
        ),
        Some(0.5)
    );
    assert_eq!(
        max_abs_difference(&Values::Float(vec![1.0]), &Values::Int(vec![1])),
        None
    );
    assert_eq!(
        max_abs_difference(&Values::Int(vec![1]), &Values::Int(vec![1, 2])),
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
        burn_extension_playground::present::impl_text(&call),
        "CubeBackend::scale (backward)"
    );
}

#[test]
fn routing_messages_are_read_from_the_generated_code() {
    use burn_extension_playground::expanded::{RoutingPanic, panic_prefix};
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
    use burn_extension_playground::protocol::{ToWorker, decode, encode};
    use burn_extension_playground::scenario::FloatInput;
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
