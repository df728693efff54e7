//! Numbers as the page writes them: values read back exactly, losses to three significant
//! digits, shapes, thousands grouped.

use crate::model::outcome::Values;

/// Values shown before a list is cut short: all the engine sends.
pub const SHOWN_VALUES: usize = crate::model::protocol::VALUES_SENT;

/// `2.5, -5, 8.75` — Rust's shortest round-trip formatting, so what is shown is exactly the
/// value read back. Tensors of more than [`SHOWN_VALUES`] `elements` are cut short.
pub fn values_text(values: &Values, elements: usize) -> String {
    fn first<T: ToString>(values: &[T]) -> Vec<String> {
        values.iter().take(SHOWN_VALUES).map(T::to_string).collect()
    }
    let mut parts = match values {
        Values::Float(values) => first(values),
        Values::Int(values) => first(values),
    };
    let shown = parts.len();
    if elements > shown {
        parts.push(format!("… ({} more)", elements - shown));
    }
    parts.join(", ")
}

/// `x` to three significant digits, as a person reads a loss: `2.39`, `0.188`, `12.3`,
/// `4.96e-10`, `1.23e6`; `NaN` and `inf` as such. Exact values stay in the data; this is for
/// sentences.
pub fn significant(x: f32) -> String {
    if !x.is_finite() {
        return x.to_string();
    }
    if x == 0.0 {
        return "0".to_owned();
    }
    let exponent = x.abs().log10().floor() as i32;
    if !(-3..6).contains(&exponent) {
        let text = format!("{x:.2e}");
        // `4.90e-10` → `4.9e-10`, `1.00e6` → `1e6`.
        let (mantissa, power) = text.split_once('e').unwrap_or((&text, "0"));
        let mantissa = trim_zeros(mantissa);
        return format!("{mantissa}e{power}");
    }
    let decimals = (2 - exponent).max(0) as usize;
    trim_zeros(&format!("{x:.decimals$}")).to_owned()
}

/// `2.50` → `2.5`, `3.00` → `3`, `120` → `120`.
fn trim_zeros(text: &str) -> &str {
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.')
    } else {
        text
    }
}

/// `[2, 3]`.
pub fn shape_text(shape: &[usize]) -> String {
    let dims: Vec<String> = shape.iter().map(usize::to_string).collect();
    format!("[{}]", dims.join(", "))
}

/// `10000` → `10,000`.
pub fn group_thousands(value: u32) -> String {
    let digits = value.to_string();
    let mut out = String::new();
    for (index, digit) in digits.chars().enumerate() {
        if index > 0 && (digits.len() - index).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}
