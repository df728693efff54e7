//! The loss chart's geometry: two curves on a log scale, and the labels of its axes, in SVG
//! units (drawn by `ui::training_view`).

use crate::model::training::LossPoint;

/// The chart's drawing area, in SVG units.
pub const CHART_WIDTH: f32 = 600.0;
/// See [`CHART_WIDTH`].
pub const CHART_HEIGHT: f32 = 240.0;
/// Margins around the plot inside the SVG: left (for the labels, wide enough for `1e-10` at
/// the larger type a phone gets), right, top, bottom.
const MARGIN: (f32, f32, f32, f32) = (PLOT_LEFT, 12.0, 10.0, 24.0);
/// Where the plot starts, in SVG units: the y labels end just left of it.
pub const PLOT_LEFT: f32 = 72.0;

/// The loss chart: two polylines on a log scale, and the labels of its axes.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// `points` attribute of the custom model's polyline.
    pub custom: String,
    /// `points` attribute of the builtin model's polyline.
    pub builtin: String,
    /// Horizontal grid lines: (y, label) for each power of ten in range.
    pub y_ticks: Vec<(f32, String)>,
    /// (x, label) for the first and last step.
    pub x_ticks: Vec<(f32, String)>,
    /// Whether the two lines are drawn at the same points (then the builtin one is drawn
    /// dashed, wider, under the custom one, and the caption says they coincide).
    pub coincide: bool,
}

/// The chart of `points` for a run of `steps` steps. Losses are drawn on a log scale (they fall
/// by orders of magnitude); NaN, infinite and non-positive losses are left out of the lines.
pub fn chart(points: &[LossPoint], steps: u32) -> Chart {
    let (left, right, top, bottom) = MARGIN;
    let plot_width = CHART_WIDTH - left - right;
    let plot_height = CHART_HEIGHT - top - bottom;
    let logs = points
        .iter()
        .flat_map(|point| [point.custom, point.builtin])
        .filter(|loss| loss.is_finite() && *loss > 0.0)
        .map(f32::log10);
    let (low, high) = logs.fold((f32::INFINITY, f32::NEG_INFINITY), |(low, high), log| {
        (low.min(log), high.max(log))
    });
    let (low, high) = if low.is_finite() {
        (low.floor(), high.ceil().max(low.floor() + 1.0))
    } else {
        (-1.0, 0.0)
    };
    let x = |step: u32| left + plot_width * step as f32 / steps.max(1) as f32;
    let y = |log: f32| top + plot_height * (high - log) / (high - low);
    let line = |loss: fn(&LossPoint) -> f32| {
        points
            .iter()
            .filter(|point| loss(point).is_finite() && loss(point) > 0.0)
            .map(|point| format!("{:.1},{:.1}", x(point.step), y(loss(point).log10())))
            .collect::<Vec<_>>()
            .join(" ")
    };
    // At most about six labels, every `stride`-th power of ten, so they never crowd each other.
    let stride = ((high - low) as u32).div_ceil(6).max(1) as i32;
    let y_ticks = (low as i32..=high as i32)
        .filter(|power| (power - low as i32) % stride == 0)
        .map(|power| (y(power as f32), format!("1e{power}")))
        .collect();
    let (custom, builtin) = (line(|point| point.custom), line(|point| point.builtin));
    Chart {
        coincide: !custom.is_empty() && custom == builtin,
        custom,
        builtin,
        y_ticks,
        x_ticks: vec![(x(0), "0".to_owned()), (x(steps), steps.to_string())],
    }
}
