//! Which part of the generated routing a run went through, located in the shipped expansion.
//!
//! The input is what the run observed — the backend it ran on, the route read off the
//! implementations that recorded themselves, or the text of the panic — never the toggles. The
//! output is a line range of the expansion (the match arm) and the lines inside it that decided
//! the outcome (the call, the context check, the `panic_fmt` that raised the message).

use crate::model::outcome::Route;
use crate::model::scenario::{BackendChoice, Declaration, OpKind};
use crate::teach::routing::expanded::{RoutingPanic, panic_prefix};

/// What a run observed, as far as the routing is concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Observed {
    /// The op returned; the route is known.
    Ran(Route),
    /// The generated fallback arm fired: no arm for the routing tensor's backend.
    BackendNotSupported,
    /// A concrete arm refused an enabled autodiff context.
    AutodiffNotSupported,
}

impl Observed {
    /// Reads a panic message, comparing it with the messages in the generated code. `None` for
    /// panics raised elsewhere than the routing.
    pub fn from_panic(message: &str) -> Option<Observed> {
        let raised = |panic| panic_prefix(panic).is_some_and(|prefix| message.contains(prefix));
        if raised(RoutingPanic::Fallback) {
            Some(Observed::BackendNotSupported)
        } else if raised(RoutingPanic::ContextRefused) {
            Some(Observed::AutodiffNotSupported)
        } else {
            None
        }
    }
}

/// The needle for the line that carries `panic`'s message: the start of its string literal
/// (rustfmt puts it on the `format_args!(` line or, nested deeper, on a line of its own).
fn message_line(panic: RoutingPanic) -> Option<String> {
    Some(format!("\"{}", panic_prefix(panic)?))
}

/// Lines of an expansion to highlight (0-based, inclusive ranges).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Highlight {
    /// The match arm that ran.
    pub arm: (usize, usize),
    /// The lines inside it that decided the outcome.
    pub focus: Vec<usize>,
}

/// The arm of `source` (one shipped expansion) that a run on `backend` went through.
///
/// `None` when the run did not call the custom op (builtin ops), or when the expansion does not
/// have the expected shape (which the tests would catch).
pub fn locate(
    source: &str,
    declaration: Declaration,
    backend: BackendChoice,
    observed: Observed,
) -> Option<Highlight> {
    let lines: Vec<&str> = source.lines().collect();
    let find_in = |from: usize, to: usize, needle: &str| {
        (from..=to.min(lines.len().saturating_sub(1))).find(|&index| lines[index].contains(needle))
    };
    let last = lines.len().checked_sub(1)?;
    match observed {
        Observed::Ran(Route::Builtin) => None,
        Observed::BackendNotSupported => {
            let message = find_in(0, last, &message_line(RoutingPanic::Fallback)?)?;
            let start = (0..message)
                .rev()
                .find(|&index| lines[index].trim() == "_ => {")?;
            Some(Highlight {
                arm: (start, block_end(&lines, start)?),
                focus: vec![message],
            })
        }
        _ => {
            let (start, end) = backend_arm(&lines, declaration, backend)?;
            match observed {
                Observed::AutodiffNotSupported => {
                    // An unwrapped routing tensor takes the `(_, __ad_ctx)` arm where `Autodiff`
                    // is declared (its `(true, …)` arm is for float inputs), else the whole
                    // backend arm; there, the refusal is a `let … else` check without the
                    // selector, or the fallback of the context match when a cfg compiled the
                    // enabled arm out.
                    let (from, to) = match find_in(start, end, "(_, __ad_ctx) =>") {
                        Some(arm) => (arm, block_end(&lines, arm)?),
                        None => (start, end),
                    };
                    let message = find_in(from, to, &message_line(RoutingPanic::ContextRefused)?)?;
                    let refusal = (from..message).rev().find(|&index| {
                        lines[index].contains("__ad_ctx else") || lines[index].trim() == "_ => {"
                    })?;
                    Some(Highlight {
                        arm: (start, end),
                        focus: vec![refusal, message],
                    })
                }
                Observed::Ran(Route::AutodiffImpl) => {
                    let arm = find_in(
                        start,
                        end,
                        "(true, burn::backend::DispatchAutodiffContext::Enabled(__strategy)) =>",
                    )?;
                    let arm_end = block_end(&lines, arm)?;
                    // Autodiff's default checkpointing strategy is `NoCheckpointing`.
                    let strategy =
                        find_in(arm, arm_end, "GradientCheckpointingStrategy::Disabled =>")?;
                    let call = find_in(strategy, arm_end, "let __output = <_B as ")?;
                    Some(Highlight {
                        arm: (arm, arm_end),
                        focus: vec![arm, strategy, call],
                    })
                }
                Observed::Ran(route) => {
                    // With `Autodiff` declared the concrete route is the `(_, __ad_ctx)` arm;
                    // without it, the whole backend arm.
                    let (arm, arm_end) = match find_in(start, end, "(_, __ad_ctx) =>") {
                        Some(arm) => (arm, block_end(&lines, arm)?),
                        None => (start, end),
                    };
                    let call = find_in(arm, arm_end, "let __output = <_B as ")?;
                    let mut focus = vec![call];
                    let context = match route {
                        Route::ConcreteInAutodiffContext => find_in(
                            call,
                            arm_end,
                            "DispatchAutodiffContext::Enabled(__strategy) =>",
                        ),
                        _ => find_in(call, arm_end, "DispatchAutodiffContext::Disabled =>"),
                    };
                    focus.extend(context);
                    Some(Highlight {
                        arm: (arm, arm_end),
                        focus,
                    })
                }
                Observed::BackendNotSupported => None,
            }
        }
    }
}

/// The part of the generated `Fusion<B>` impl that a run went through when a queued kernel of
/// `op` ran (an implementation recorded itself as deferred): the impl, its line that registers
/// the op with fusion's queue, and the line of the closure the queue later runs that calls the
/// inner backend's implementation. `None` when `source` has no such impl (a declaration without
/// `Fusion`, or `#[fusion(default)]`, whose impl calls the trait's default body instead).
pub fn locate_queued(source: &str, op: OpKind) -> Option<Highlight> {
    let lines: Vec<&str> = source.lines().collect();
    let header = lines
        .iter()
        .position(|line| line.contains("for burn::backend::fusion::Fusion<B>"))?;
    let start = (0..=header)
        .rev()
        .find(|&index| lines[index].trim_start().starts_with("impl<"))?;
    let end = block_end(&lines, start)?;
    let find = |needle: &str| (start..=end).find(|&index| lines[index].contains(needle));
    let call = find(&format!(
        "let __output = <B as {}>::{}(",
        op.trait_name(),
        op.name()
    ))?;
    let register = find(".register(")?;
    let mut focus = vec![call, register];
    focus.sort_unstable();
    Some(Highlight {
        arm: (start, end),
        focus,
    })
}

/// The outer match arm for the backend's tag: burn's macro numbers the concrete selectors in
/// the order the declaration lists them.
fn backend_arm(
    lines: &[&str],
    declaration: Declaration,
    backend: BackendChoice,
) -> Option<(usize, usize)> {
    let tag = declaration.backend_tag(backend.selector())?;
    let header = format!("({tag}usize, __has_float_input) =>");
    let start = lines.iter().position(|line| line.contains(&header))?;
    Some((start, block_end(lines, start)?))
}

/// The line holding the brace that closes the first `{` opened on line `start`.
fn block_end(lines: &[&str], start: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut opened = false;
    for (index, line) in lines.iter().enumerate().skip(start) {
        let mut in_string = false;
        let mut previous = ' ';
        for c in line.chars() {
            match c {
                '"' if previous != '\\' => in_string = !in_string,
                '{' if !in_string => {
                    depth += 1;
                    opened = true;
                }
                '}' if !in_string => depth -= 1,
                _ => {}
            }
            previous = c;
        }
        if opened && depth <= 0 {
            return Some(index);
        }
    }
    None
}
