//! Parsing what users type: exact shapes and values, exact messages, and a property test that no
//! text makes the parser panic.

use burn_extension_playground::model::scenario::{FloatInput, IntInput, OpArgs, OpKind};
use burn_extension_playground::teach::input::args::{
    ArgsError, Field, InputError, MAX_ELEMENTS, MAX_INT_MAGNITUDE, MAX_TEXT_BYTES, parse_args,
    parse_float_scalar, parse_float_tensor, parse_int_scalar, parse_int_tensor,
};
use proptest::prelude::*;

fn float(shape: &[usize], values: &[f32]) -> FloatInput {
    FloatInput {
        shape: shape.to_vec(),
        values: values.into(),
    }
}

#[test]
fn one_row_is_a_vector() {
    assert_eq!(
        parse_float_tensor("1, 2, 3.5"),
        Ok(float(&[3], &[1.0, 2.0, 3.5]))
    );
    assert_eq!(
        parse_float_tensor("  1 2\t3.5  "),
        Ok(float(&[3], &[1.0, 2.0, 3.5]))
    );
    assert_eq!(
        parse_float_tensor("-0, +4, .5, 6., 1e3"),
        Ok(float(&[5], &[-0.0, 4.0, 0.5, 6.0, 1000.0]))
    );
}

#[test]
fn negative_zero_keeps_its_sign() {
    let parsed = parse_float_tensor("-0").unwrap();
    assert!(parsed.values[0].is_sign_negative());
}

#[test]
fn rows_make_a_matrix() {
    assert_eq!(
        parse_float_tensor("1, 2; 3, 4"),
        Ok(float(&[2, 2], &[1.0, 2.0, 3.0, 4.0]))
    );
    assert_eq!(
        parse_float_tensor("1 2 3\n4 5 6\n"),
        Ok(float(&[2, 3], &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]))
    );
    // Blank rows and trailing separators are not rows.
    assert_eq!(
        parse_float_tensor("1, 2;; 3, 4;"),
        Ok(float(&[2, 2], &[1.0, 2.0, 3.0, 4.0]))
    );
}

#[test]
fn ragged_rows_name_the_row() {
    let error = parse_float_tensor("1, 2; 3, 4, 5").unwrap_err();
    assert_eq!(
        error,
        InputError::RaggedRows {
            row: 2,
            expected: 2,
            found: 3
        }
    );
    assert_eq!(
        error.to_string(),
        "Row 2 has 3 values, but row 1 has 2: every row needs the same length."
    );
    assert_eq!(
        parse_float_tensor("1, 2; 3").unwrap_err().to_string(),
        "Row 2 has 1 value, but row 1 has 2: every row needs the same length."
    );
}

#[test]
fn empty_text_asks_for_a_number() {
    for text in ["", "   ", ",,;\n ;", "\t"] {
        assert_eq!(parse_float_tensor(text), Err(InputError::Empty), "{text:?}");
    }
    assert_eq!(InputError::Empty.to_string(), "Enter at least one number.");
}

#[test]
fn non_numbers_are_named_with_their_position() {
    let error = parse_float_tensor("1, two, 3").unwrap_err();
    assert_eq!(error.to_string(), "Value 2 (`two`) is not a number.");
    // Unicode digits are not ASCII numbers.
    assert_eq!(
        parse_float_tensor("１２").unwrap_err().to_string(),
        "Value 1 (`１２`) is not a number."
    );
    assert_eq!(
        parse_float_tensor("1 <b>x</b>").unwrap_err().to_string(),
        "Value 2 (`<b>x</b>`) is not a number."
    );
}

#[test]
fn long_tokens_are_shortened_in_messages() {
    let token = "x".repeat(1000);
    assert_eq!(
        parse_float_tensor(&token).unwrap_err().to_string(),
        format!("Value 1 (`{}…`) is not a number.", "x".repeat(24))
    );
}

#[test]
fn non_finite_values_are_refused() {
    for (text, token) in [
        ("NaN", "NaN"),
        ("1, inf", "inf"),
        ("-infinity", "-infinity"),
        ("1e309", "1e309"),
    ] {
        let error = parse_float_tensor(text).unwrap_err();
        assert!(
            matches!(&error, InputError::NotFinite { token: t, .. } if t == token),
            "{text}: {error:?}"
        );
    }
    assert_eq!(
        parse_float_tensor("1e309").unwrap_err().to_string(),
        "Value 1 (`1e309`) is not finite; use a finite number."
    );
}

#[test]
fn values_beyond_f32_are_refused() {
    assert_eq!(
        parse_float_tensor("1, 1e39").unwrap_err().to_string(),
        "Value 2 (`1e39`) is outside the f32 range (±3.4e38)."
    );
    assert_eq!(parse_float_tensor("3.4e38"), Ok(float(&[1], &[3.4e38])));
}

#[test]
fn element_count_is_limited() {
    let at_limit = vec!["1"; MAX_ELEMENTS].join(",");
    assert_eq!(
        parse_float_tensor(&at_limit).unwrap().values.len(),
        MAX_ELEMENTS
    );
    let over = vec!["1"; MAX_ELEMENTS + 1].join(",");
    assert_eq!(
        parse_float_tensor(&over),
        Err(InputError::TooManyElements { max: MAX_ELEMENTS })
    );
    assert_eq!(
        InputError::TooManyElements { max: MAX_ELEMENTS }.to_string(),
        "Too many values: the limit is 1048576."
    );
}

#[test]
fn text_length_is_limited_before_scanning() {
    let text = " ".repeat(MAX_TEXT_BYTES + 1);
    assert_eq!(
        parse_float_tensor(&text),
        Err(InputError::TooLong {
            bytes: MAX_TEXT_BYTES + 1
        })
    );
}

#[test]
fn ints_are_whole_and_bounded() {
    assert_eq!(
        parse_int_tensor("0, 7, -3; 1, 2, 3"),
        Ok(IntInput {
            shape: vec![2, 3],
            values: vec![0, 7, -3, 1, 2, 3].into()
        })
    );
    assert_eq!(
        parse_int_tensor("1, 2.5").unwrap_err().to_string(),
        "Value 2 (`2.5`) is not a whole number; this field takes integers."
    );
    assert_eq!(
        parse_int_tensor("1e3").unwrap_err(),
        InputError::NotAnInteger {
            position: 1,
            token: "1e3".into()
        }
    );
    let max = MAX_INT_MAGNITUDE.to_string();
    assert_eq!(*parse_int_tensor(&max).unwrap().values, [1_000_000_000]);
    assert_eq!(
        parse_int_tensor("1000000001").unwrap_err().to_string(),
        "Value 1 (`1000000001`) is outside ±1000000000."
    );
    assert_eq!(
        parse_int_tensor("99999999999999999999999").unwrap_err(),
        InputError::IntOutOfRange {
            position: 1,
            token: "99999999999999999999999".into()
        }
    );
    assert_eq!(
        parse_int_tensor("NaN").unwrap_err(),
        InputError::NotFinite {
            position: 1,
            token: "NaN".into()
        }
    );
}

#[test]
fn scalars_take_exactly_one_number() {
    assert_eq!(parse_float_scalar(" 2.5 "), Ok(2.5));
    assert_eq!(parse_int_scalar("-12"), Ok(-12));
    assert_eq!(
        parse_float_scalar("1, 2").unwrap_err().to_string(),
        "Enter exactly one number (found 2)."
    );
    assert_eq!(parse_float_scalar(""), Err(InputError::Empty));
    assert_eq!(
        parse_int_scalar("0.5").unwrap_err(),
        InputError::NotAnInteger {
            position: 1,
            token: "0.5".into()
        }
    );
}

#[test]
fn args_errors_are_reported_per_field() {
    assert_eq!(
        parse_args(OpKind::Scale, "1, 2", "3"),
        Ok(OpArgs::Scale {
            x: float(&[2], &[1.0, 2.0]),
            factor: 3.0
        })
    );
    assert_eq!(
        parse_args(OpKind::ShiftIds, "1, 2", "5"),
        Ok(OpArgs::ShiftIds {
            ids: IntInput {
                shape: vec![2],
                values: vec![1, 2].into()
            },
            offset: 5
        })
    );
    assert_eq!(
        parse_args(OpKind::LeakyRelu, "", "x"),
        Err(vec![
            ArgsError {
                field: Field::Tensor,
                error: InputError::Empty
            },
            ArgsError {
                field: Field::Param,
                error: InputError::NotANumber {
                    position: 1,
                    token: "x".into()
                }
            },
        ])
    );
    assert_eq!(
        parse_args(OpKind::ShiftIds, "1.5", "2"),
        Err(vec![ArgsError {
            field: Field::Tensor,
            error: InputError::NotAnInteger {
                position: 1,
                token: "1.5".into()
            }
        }])
    );
}

/// Checks a parsed tensor is internally consistent.
fn consistent(shape: &[usize], len: usize) -> bool {
    !shape.is_empty()
        && shape.len() <= 2
        && shape.iter().product::<usize>() == len
        && len > 0
        && len <= MAX_ELEMENTS
}

proptest! {
    #[test]
    fn arbitrary_text_never_panics(text in any::<String>()) {
        match parse_float_tensor(&text) {
            Ok(parsed) => {
                prop_assert!(consistent(&parsed.shape, parsed.values.len()));
                prop_assert!(parsed.values.iter().all(|v| v.is_finite()));
            }
            Err(error) => prop_assert!(!error.to_string().is_empty()),
        }
        match parse_int_tensor(&text) {
            Ok(parsed) => {
                prop_assert!(consistent(&parsed.shape, parsed.values.len()));
                prop_assert!(parsed.values.iter().all(|v| (*v as i64).abs() <= MAX_INT_MAGNITUDE));
            }
            Err(error) => prop_assert!(!error.to_string().is_empty()),
        }
        let _ = parse_float_scalar(&text).map_err(|error| error.to_string());
        let _ = parse_int_scalar(&text).map_err(|error| error.to_string());
    }

    #[test]
    fn number_like_text_never_panics(text in "[-+0-9eE.,; \\n\\tinfINFNa]{0,64}") {
        for op in OpKind::ALL {
            match parse_args(op, &text, &text) {
                Ok(args) => prop_assert_eq!(args.kind(), op),
                Err(errors) => {
                    prop_assert!(!errors.is_empty());
                    prop_assert!(errors.iter().all(|e| !e.error.to_string().is_empty()));
                }
            }
        }
    }

    #[test]
    fn printed_floats_parse_back_exactly(values in prop::collection::vec(-1e30f32..1e30f32, 1..50)) {
        let text = values.iter().map(|v| v.to_string()).collect::<Vec<_>>().join(", ");
        let parsed = parse_float_tensor(&text).unwrap();
        prop_assert_eq!(parsed.shape, vec![values.len()]);
        prop_assert_eq!(&*parsed.values, &values[..]);
    }
}
