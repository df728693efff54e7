//! What one declaration's generated routing adds to, or takes from, another's: a line diff of
//! two shipped expansions of the same op (or of any two expansions: [`code_diff`], which the
//! editor uses for one text under two versions of burn's macro), and a sentence saying which
//! arms appeared or vanished, by the names the generated code gives them.
//!
//! The diff is `similar`'s (Myers on lines), not written here.

use similar::{ChangeTag, TextDiff};

use crate::model::scenario::{Declaration, OpKind};
use crate::teach::routing::expanded;

/// How a line of the diff differs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Change {
    /// In both expansions.
    Same,
    /// Only in the shown declaration's expansion.
    Added,
    /// Only in the compared declaration's expansion.
    Removed,
}

/// One line of the diff.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffLine {
    /// How it differs.
    pub change: Change,
    /// Its text, without the line ending.
    pub text: String,
    /// Its 0-based index in the shown expansion (`None` for a removed line), so the arm a run
    /// went through can still be marked.
    pub line: Option<usize>,
    /// Its 0-based index in the compared expansion (`None` for an added line).
    pub old_line: Option<usize>,
}

/// The diff of the routing `op` gets under `shown` against `compared`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoutingDiff {
    /// Every line of both, in order.
    pub lines: Vec<DiffLine>,
    /// What changed, in a sentence.
    pub summary: String,
}

/// The arm an arm line opens, as the generated code names it: the pattern before `=>`, trimmed
/// (`(0usize, __has_float_input)`, `(true, burn::backend::DispatchAutodiffContext::Enabled(_))`,
/// `_`). `None` for a line that opens no arm.
fn arm_pattern(line: &str) -> Option<&str> {
    let (pattern, _) = line.trim().split_once(" =>")?;
    (!pattern.is_empty() && !pattern.starts_with("//")).then_some(pattern)
}

/// The arm patterns of `source`, each with how many arms open with it, in order of first use.
fn arm_counts(source: &str) -> Vec<(&str, usize)> {
    let mut counts: Vec<(&str, usize)> = Vec::new();
    for pattern in source.lines().filter_map(arm_pattern) {
        match counts.iter_mut().find(|(known, _)| *known == pattern) {
            Some((_, count)) => *count += 1,
            None => counts.push((pattern, 1)),
        }
    }
    counts
}

/// The patterns `more` opens more arms with than `fewer` does, with how many more.
fn more_arms<'a>(more: &[(&'a str, usize)], fewer: &[(&str, usize)]) -> Vec<(&'a str, usize)> {
    more.iter()
        .filter_map(|&(pattern, count)| {
            let before = fewer
                .iter()
                .find(|(known, _)| *known == pattern)
                .map_or(0, |(_, count)| *count);
            (count > before).then(|| (pattern, count - before))
        })
        .collect()
}

/// `a`, `a and b`, `a, b and c`, each in backquotes, with `(×2)` where there are several.
fn listed(items: &[(&str, usize)]) -> String {
    let quoted: Vec<String> = items
        .iter()
        .map(|(item, count)| match count {
            1 => format!("`{item}`"),
            count => format!("`{item}` (×{count})"),
        })
        .collect();
    match quoted.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The diff of `op`'s routing under `shown` against `compared`, or `None` when either has no
/// shipped expansion.
pub fn routing_diff(op: OpKind, shown: Declaration, compared: Declaration) -> Option<RoutingDiff> {
    let new = expanded::source(op, shown)?;
    let old = expanded::source(op, compared)?;
    Some(code_diff(
        new,
        old,
        &format!("`{}`", shown.selectors()),
        &format!("`{}`", compared.selectors()),
        "The two declarations generate the same routing, line for line.",
    ))
}

/// The line diff of the code `new` against `old` (named so in its summary), with `same` as the
/// summary when they do not differ.
pub fn code_diff(new: &str, old: &str, new_name: &str, old_name: &str, same: &str) -> RoutingDiff {
    let diff = TextDiff::from_lines(old, new);
    let mut lines = Vec::new();
    for change in diff.iter_all_changes() {
        let text = change.value().trim_end_matches('\n').to_owned();
        lines.push(DiffLine {
            change: match change.tag() {
                ChangeTag::Equal => Change::Same,
                ChangeTag::Insert => Change::Added,
                ChangeTag::Delete => Change::Removed,
            },
            text,
            line: change.new_index(),
            old_line: change.old_index(),
        });
    }
    let only = |change: Change| {
        lines
            .iter()
            .filter(move |line| line.change == change)
            .map(|line| line.text.as_str())
    };
    let (added, removed) = (only(Change::Added).count(), only(Change::Removed).count());
    let (new_counts, old_counts) = (arm_counts(new), arm_counts(old));
    let new_arms = more_arms(&new_counts, &old_counts);
    let gone_arms = more_arms(&old_counts, &new_counts);
    let mut summary = if added + removed == 0 {
        same.to_owned()
    } else {
        format!(
            "{new_name} against {old_name}: {added} line{} added, {removed} removed.",
            if added == 1 { "" } else { "s" }
        )
    };
    if !new_arms.is_empty() {
        summary.push_str(&format!(" Arms it adds: {}.", listed(&new_arms)));
    }
    if !gone_arms.is_empty() {
        summary.push_str(&format!(" Arms it drops: {}.", listed(&gone_arms)));
    }
    RoutingDiff { lines, summary }
}
