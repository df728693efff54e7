//! Numbers as the page writes them: values read back exactly, losses to three significant
//! digits, shapes, thousands grouped; and a tensor too long to read value by value: its summary,
//! its last values, a page of values, the whole of it as CSV.

use crate::model::outcome::{Summary, TensorView, Values};

/// Values shown before a list is cut short: all the engine sends.
pub const SHOWN_VALUES: usize = crate::model::protocol::VALUES_SENT;

/// `2.5, -5, 8.75` — Rust's shortest round-trip formatting, so what is shown is exactly the
/// value read back. Tensors of more than [`SHOWN_VALUES`] `elements` are cut short.
pub fn values_text(values: &Values, elements: usize) -> String {
    let mut parts = value_texts(&values.slice(0..SHOWN_VALUES));
    let shown = parts.len();
    if elements > shown {
        parts.push(format!("… ({} more)", elements - shown));
    }
    parts.join(", ")
}

/// Values on one page of the values browser.
pub const PAGE_VALUES: usize = 64;
/// Values on one line of a page.
pub const LINE_VALUES: usize = 8;
/// The most values "the last values" shows (fewer when the last row is shorter).
pub const LAST_VALUES: usize = 16;

/// The values of a tensor, each as written exactly (`f32`s by Rust's shortest round trip).
fn value_texts(values: &Values) -> Vec<String> {
    match values {
        Values::Float(values) => values.iter().map(f32::to_string).collect(),
        Values::Int(values) => values.iter().map(i64::to_string).collect(),
    }
}

/// `min -3 · max 3 · mean ≈ 0.5 · no NaN or inf`: `min` and `max` exactly (they are values of
/// the tensor), the mean to three significant digits, over the finite values when some are not.
pub fn summary_text(summary: &Summary, float: bool) -> String {
    let exact = |x: f64| {
        if float {
            (x as f32).to_string()
        } else {
            (x as i64).to_string()
        }
    };
    let range = match (summary.min, summary.max, summary.mean) {
        (Some(min), Some(max), Some(mean)) => format!(
            "min {} · max {} · mean ≈ {}",
            exact(min),
            exact(max),
            significant(mean as f32)
        ),
        _ => "no finite values".to_owned(),
    };
    if summary.nan == 0 && summary.infinite == 0 {
        format!("{range} · no NaN or inf")
    } else {
        let of_finite = if summary.min.is_some() {
            " (min, max and mean of the finite values)"
        } else {
            ""
        };
        format!(
            "{range} · {} NaN · {} inf{of_finite}",
            summary.nan, summary.infinite
        )
    }
}

/// Row-major index `flat` of a tensor of `shape` as its coordinates: `[12, 3]`.
pub fn index_text(shape: &[usize], flat: usize) -> String {
    let mut coordinates = vec![0; shape.len()];
    let mut rest = flat;
    for (coordinate, &size) in coordinates.iter_mut().zip(shape).rev() {
        if size > 0 {
            *coordinate = rest % size;
            rest /= size;
        }
    }
    shape_text(&coordinates)
}

/// How many of the last values "the last values" shows: the last row, up to [`LAST_VALUES`].
pub fn last_count(shape: &[usize]) -> usize {
    let elements: usize = shape.iter().product();
    shape
        .last()
        .copied()
        .unwrap_or(1)
        .min(LAST_VALUES)
        .min(elements)
}

/// `… (65520 before), 1.5, 2, …`: the tensor's last values, as [`values_text`] writes its first.
pub fn last_values_text(tensor: &TensorView) -> String {
    let elements = tensor.elements();
    let count = last_count(&tensor.shape);
    let mut parts = vec![format!("… ({} before)", elements - count)];
    parts.extend(value_texts(&tensor.values_at(elements - count..elements)));
    parts.join(", ")
}

/// How many pages of [`PAGE_VALUES`] the values browser has for `elements` values.
pub fn page_count(elements: usize) -> usize {
    elements.div_ceil(PAGE_VALUES).max(1)
}

/// `Values 65–128 of 65,536`.
pub fn page_label(page: usize, elements: usize) -> String {
    let first = page * PAGE_VALUES;
    let last = (first + PAGE_VALUES).min(elements);
    format!(
        "Values {}–{} of {}",
        group_thousands(first + 1),
        group_thousands(last),
        group_thousands(elements)
    )
}

/// Page `page` of the values browser: a line per [`LINE_VALUES`] values, each starting with
/// the coordinates of its first value.
pub fn page_lines(tensor: &TensorView, page: usize) -> Vec<(String, String)> {
    let first = page * PAGE_VALUES;
    let values = value_texts(&tensor.values_at(first..first + PAGE_VALUES));
    values
        .chunks(LINE_VALUES)
        .enumerate()
        .map(|(line, chunk)| {
            (
                index_text(&tensor.shape, first + line * LINE_VALUES),
                chunk.join(", "),
            )
        })
        .collect()
}

/// Every value of the tensor as CSV, a line per row of its last dimension (a line per value for
/// a 1-D tensor), each value written exactly.
pub fn csv_text(tensor: &TensorView) -> String {
    let values = value_texts(&tensor.values_at(0..tensor.elements()));
    let per_line = if tensor.shape.len() > 1 {
        tensor.shape.last().copied().unwrap_or(1).max(1)
    } else {
        1
    };
    let mut text = String::new();
    for line in values.chunks(per_line) {
        text.push_str(&line.join(","));
        text.push('\n');
    }
    text
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

/// `10000` → `10,000` (for any unsigned integer).
pub fn group_thousands(value: impl std::fmt::Display) -> String {
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
