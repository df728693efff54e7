//! The training fields' text → [`TrainSettings`], with a message per mistake.

use std::fmt;

use crate::model::training::{MAX_LEARNING_RATE, MAX_STEPS, OptimizerChoice, TrainSettings};
use crate::teach::numbers::group_thousands;

/// The training fields' text, as typed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrainTexts {
    /// Steps, e.g. `200`.
    pub steps: String,
    /// Learning rate, e.g. `0.05`.
    pub learning_rate: String,
}

impl Default for TrainTexts {
    fn default() -> TrainTexts {
        TrainTexts {
            steps: "200".to_owned(),
            learning_rate: "0.05".to_owned(),
        }
    }
}

/// A training field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TrainField {
    /// The number of steps.
    Steps,
    /// The learning rate.
    LearningRate,
}

/// Why a training field's text cannot be used. `Display` is the message next to the field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TrainInputError {
    /// Nothing typed.
    Empty(TrainField),
    /// Steps that are not a whole number from 1 to [`MAX_STEPS`].
    StepsOutOfRange,
    /// A learning rate that is not a number (or not finite).
    NotANumber,
    /// A learning rate of 0 or below.
    NotPositive,
    /// A learning rate above [`MAX_LEARNING_RATE`].
    TooLarge,
}

impl TrainInputError {
    /// The field the message belongs next to.
    pub fn field(&self) -> TrainField {
        match self {
            TrainInputError::Empty(field) => *field,
            TrainInputError::StepsOutOfRange => TrainField::Steps,
            _ => TrainField::LearningRate,
        }
    }
}

impl fmt::Display for TrainInputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TrainInputError::Empty(TrainField::Steps) => write!(f, "Enter a number of steps."),
            TrainInputError::Empty(TrainField::LearningRate) => {
                write!(f, "Enter a learning rate.")
            }
            TrainInputError::StepsOutOfRange => write!(
                f,
                "Steps must be a whole number from 1 to {}.",
                group_thousands(MAX_STEPS)
            ),
            TrainInputError::NotANumber => {
                write!(f, "The learning rate must be a finite number, like 0.05.")
            }
            TrainInputError::NotPositive => write!(f, "The learning rate must be above 0."),
            TrainInputError::TooLarge => {
                write!(f, "The learning rate must be at most {MAX_LEARNING_RATE}.")
            }
        }
    }
}

/// The settings, or a message for each field that does not parse.
pub fn parse_settings(
    texts: &TrainTexts,
    optimizer: OptimizerChoice,
) -> Result<TrainSettings, Vec<TrainInputError>> {
    let steps = match texts.steps.trim() {
        "" => Err(TrainInputError::Empty(TrainField::Steps)),
        text => text
            .parse::<u32>()
            .ok()
            .filter(|steps| (1..=MAX_STEPS).contains(steps))
            .ok_or(TrainInputError::StepsOutOfRange),
    };
    let learning_rate = match texts.learning_rate.trim() {
        "" => Err(TrainInputError::Empty(TrainField::LearningRate)),
        text => match text.parse::<f32>() {
            Ok(rate) if !rate.is_finite() => Err(TrainInputError::NotANumber),
            Ok(rate) if rate <= 0.0 => Err(TrainInputError::NotPositive),
            Ok(rate) if rate > MAX_LEARNING_RATE => Err(TrainInputError::TooLarge),
            Ok(rate) => Ok(rate),
            Err(_) => Err(TrainInputError::NotANumber),
        },
    };
    match (steps, learning_rate) {
        (Ok(steps), Ok(learning_rate)) => Ok(TrainSettings {
            steps,
            learning_rate,
            optimizer,
        }),
        (steps, learning_rate) => Err([steps.err(), learning_rate.err()]
            .into_iter()
            .flatten()
            .collect()),
    }
}
