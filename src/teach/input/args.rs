//! Parsing what the user types into typed op arguments.
//!
//! Tensors are written as numbers separated by commas or whitespace; rows are separated by `;` or
//! a line break. One row gives a 1-D tensor (`1, 2, 3.5` → shape `[3]`), several rows a 2-D one
//! (`1, 2; 3, 4` → shape `[2, 2]`). Scalars are a single number.
//!
//! Every failure is an [`InputError`] whose `Display` is the message shown next to the field.
//! Nothing here panics, whatever the text (a property test checks this).

use std::fmt;

use crate::model::scenario::{FloatInput, IntInput, OpArgs, OpKind};

/// Largest tensor the playground accepts: 2^20 elements (4 MiB of f32).
pub const MAX_ELEMENTS: usize = 1 << 20;

/// Longest text accepted in one field, in bytes (16 MiB). Longer text is rejected before it is
/// scanned, so pasting a huge file costs nothing.
pub const MAX_TEXT_BYTES: usize = 16 << 20;

/// Integers (ids and offsets) are limited to ±1,000,000,000 so that `id + offset` always fits in
/// the 32-bit integers the GPU uses.
pub const MAX_INT_MAGNITUDE: i64 = 1_000_000_000;

/// Why a field's text could not be used. `Display` is the user-facing message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Nothing but whitespace and separators.
    Empty,
    /// The text is longer than [`MAX_TEXT_BYTES`].
    TooLong { bytes: usize },
    /// A token that is not a number. `position` is 1-based over all values.
    NotANumber { position: usize, token: String },
    /// `NaN` or an infinity (written out, or a literal that overflows, like `1e309`).
    NotFinite { position: usize, token: String },
    /// A finite number outside the f32 range.
    OutOfF32Range { position: usize, token: String },
    /// A number with a fractional part or exponent where an integer is needed.
    NotAnInteger { position: usize, token: String },
    /// An integer beyond ±[`MAX_INT_MAGNITUDE`].
    IntOutOfRange { position: usize, token: String },
    /// More than [`MAX_ELEMENTS`] values.
    TooManyElements { max: usize },
    /// Rows of different lengths (1-based row numbers).
    RaggedRows {
        row: usize,
        expected: usize,
        found: usize,
    },
    /// A scalar field holding more than one number.
    NotOneNumber { found: usize },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Empty => write!(f, "Enter at least one number."),
            InputError::TooLong { bytes } => write!(
                f,
                "The text is {} bytes long; the limit is {MAX_TEXT_BYTES} bytes.",
                bytes
            ),
            InputError::NotANumber { position, token } => {
                write!(
                    f,
                    "Value {position} (`{}`) is not a number.",
                    shorten(token)
                )
            }
            InputError::NotFinite { position, token } => write!(
                f,
                "Value {position} (`{}`) is not finite; use a finite number.",
                shorten(token)
            ),
            InputError::OutOfF32Range { position, token } => write!(
                f,
                "Value {position} (`{}`) is outside the f32 range (±3.4e38).",
                shorten(token)
            ),
            InputError::NotAnInteger { position, token } => write!(
                f,
                "Value {position} (`{}`) is not a whole number; this field takes integers.",
                shorten(token)
            ),
            InputError::IntOutOfRange { position, token } => write!(
                f,
                "Value {position} (`{}`) is outside ±{MAX_INT_MAGNITUDE}.",
                shorten(token)
            ),
            InputError::TooManyElements { max } => {
                write!(f, "Too many values: the limit is {max}.")
            }
            InputError::RaggedRows {
                row,
                expected,
                found,
            } => write!(
                f,
                "Row {row} has {found} value{}, but row 1 has {expected}: every row needs the same length.",
                if *found == 1 { "" } else { "s" }
            ),
            InputError::NotOneNumber { found } => {
                write!(f, "Enter exactly one number (found {found}).")
            }
        }
    }
}

impl std::error::Error for InputError {}

/// Quote at most 24 characters of a token, so a pasted megabyte stays a one-line message.
fn shorten(token: &str) -> String {
    const LIMIT: usize = 24;
    if token.chars().count() <= LIMIT {
        token.to_owned()
    } else {
        let head: String = token.chars().take(LIMIT).collect();
        format!("{head}…")
    }
}

/// Splits text into rows of raw tokens, enforcing the size limits before any number is parsed.
fn tokenize(text: &str) -> Result<(Vec<&str>, Vec<usize>), InputError> {
    if text.len() > MAX_TEXT_BYTES {
        return Err(InputError::TooLong { bytes: text.len() });
    }
    let mut tokens = Vec::new();
    let mut row_lengths = Vec::new();
    for row in text.split([';', '\n']) {
        let before = tokens.len();
        for token in row.split(|c: char| c == ',' || c.is_whitespace()) {
            if token.is_empty() {
                continue;
            }
            if tokens.len() == MAX_ELEMENTS {
                return Err(InputError::TooManyElements { max: MAX_ELEMENTS });
            }
            tokens.push(token);
        }
        // Blank rows (a trailing `;` or newline) are not rows.
        if tokens.len() > before {
            row_lengths.push(tokens.len() - before);
        }
    }
    if tokens.is_empty() {
        return Err(InputError::Empty);
    }
    Ok((tokens, row_lengths))
}

/// The tensor shape the rows describe: `[n]` for one row, `[rows, cols]` otherwise.
fn shape_of(row_lengths: &[usize]) -> Result<Vec<usize>, InputError> {
    let expected = row_lengths[0];
    if row_lengths.len() == 1 {
        return Ok(vec![expected]);
    }
    for (index, &found) in row_lengths.iter().enumerate().skip(1) {
        if found != expected {
            return Err(InputError::RaggedRows {
                row: index + 1,
                expected,
                found,
            });
        }
    }
    Ok(vec![row_lengths.len(), expected])
}

fn parse_float(token: &str, position: usize) -> Result<f32, InputError> {
    let value: f64 = token.parse().map_err(|_| InputError::NotANumber {
        position,
        token: token.to_owned(),
    })?;
    if !value.is_finite() {
        return Err(InputError::NotFinite {
            position,
            token: token.to_owned(),
        });
    }
    if value.abs() > f32::MAX as f64 {
        return Err(InputError::OutOfF32Range {
            position,
            token: token.to_owned(),
        });
    }
    Ok(value as f32)
}

fn parse_int(token: &str, position: usize) -> Result<i32, InputError> {
    match token.parse::<i64>() {
        Ok(value) if value.abs() <= MAX_INT_MAGNITUDE => Ok(value as i32),
        Ok(_) => Err(InputError::IntOutOfRange {
            position,
            token: token.to_owned(),
        }),
        Err(_) => {
            // Tell "2.5" (a number, but not whole) apart from "abc".
            let float = parse_float(token, position)?;
            let error = if float.fract() == 0.0 && (float as f64).abs() > MAX_INT_MAGNITUDE as f64 {
                InputError::IntOutOfRange {
                    position,
                    token: token.to_owned(),
                }
            } else {
                InputError::NotAnInteger {
                    position,
                    token: token.to_owned(),
                }
            };
            Err(error)
        }
    }
}

/// Parses a float tensor.
pub fn parse_float_tensor(text: &str) -> Result<FloatInput, InputError> {
    let (tokens, row_lengths) = tokenize(text)?;
    let shape = shape_of(&row_lengths)?;
    let values = tokens
        .iter()
        .enumerate()
        .map(|(index, token)| parse_float(token, index + 1))
        .collect::<Result<_, _>>()?;
    Ok(FloatInput { shape, values })
}

/// Parses an int tensor.
pub fn parse_int_tensor(text: &str) -> Result<IntInput, InputError> {
    let (tokens, row_lengths) = tokenize(text)?;
    let shape = shape_of(&row_lengths)?;
    let values = tokens
        .iter()
        .enumerate()
        .map(|(index, token)| parse_int(token, index + 1))
        .collect::<Result<_, _>>()?;
    Ok(IntInput { shape, values })
}

fn single_token(text: &str) -> Result<&str, InputError> {
    let (tokens, _) = tokenize(text)?;
    match tokens.as_slice() {
        [token] => Ok(token),
        _ => Err(InputError::NotOneNumber {
            found: tokens.len(),
        }),
    }
}

/// Parses a float scalar (exactly one number).
pub fn parse_float_scalar(text: &str) -> Result<f32, InputError> {
    parse_float(single_token(text)?, 1)
}

/// Parses an int scalar (exactly one whole number).
pub fn parse_int_scalar(text: &str) -> Result<i32, InputError> {
    parse_int(single_token(text)?, 1)
}

/// Which field an [`ArgsError`] belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The tensor input.
    Tensor,
    /// The op's scalar parameter.
    Param,
}

/// An [`InputError`] tied to the field it should be shown next to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArgsError {
    /// The offending field.
    pub field: Field,
    /// What is wrong with it.
    pub error: InputError,
}

/// Parses both fields of `op` into its typed arguments; every error found is returned, one per
/// field, so each field can show its own message.
pub fn parse_args(op: OpKind, tensor: &str, param: &str) -> Result<OpArgs, Vec<ArgsError>> {
    let at = |field| move |error| ArgsError { field, error };
    match op {
        OpKind::Scale | OpKind::LeakyRelu => {
            let x = parse_float_tensor(tensor).map_err(at(Field::Tensor));
            let p = parse_float_scalar(param).map_err(at(Field::Param));
            match (x, p) {
                (Ok(x), Ok(p)) => Ok(match op {
                    OpKind::Scale => OpArgs::Scale { x, factor: p },
                    _ => OpArgs::LeakyRelu { x, slope: p },
                }),
                (x, p) => Err([x.err(), p.err()].into_iter().flatten().collect()),
            }
        }
        OpKind::ShiftIds => {
            let ids = parse_int_tensor(tensor).map_err(at(Field::Tensor));
            let offset = parse_int_scalar(param).map_err(at(Field::Param));
            match (ids, offset) {
                (Ok(ids), Ok(offset)) => Ok(OpArgs::ShiftIds { ids, offset }),
                (ids, offset) => Err([ids.err(), offset.err()].into_iter().flatten().collect()),
            }
        }
    }
}
