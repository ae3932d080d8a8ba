//! What the command line's charts share (`sim --plot`, `sim --sweep … --plot`,
//! `compare --plot`): their font and how a chart is finished.

/// The chart font (Fira Mono, SIL Open Font License; see assets/fonts/).
const FONT: &[u8] = include_bytes!("../../assets/fonts/FiraMono-subset.ttf");

/// Registers the chart font as plotters' `sans-serif`, which every chart writes in.
/// Registering twice (a second plot in one process) is harmless.
pub fn use_font() -> Result<(), String> {
    use plotters::style::{FontStyle, register_font};
    register_font("sans-serif", FontStyle::Normal, FONT).map_err(|_| "bad font".to_string())
}

/// Draws `chart`'s series labels (the legend) at `position` and writes the image of
/// `root`: how every chart of `sim` and `sim --sweep` ends.
pub fn legend_and_present<'a, DB, CT, S>(
    chart: &mut plotters::chart::ChartContext<'a, DB, CT>,
    root: &plotters::drawing::DrawingArea<DB, S>,
    position: plotters::chart::SeriesLabelPosition,
) -> Result<(), String>
where
    DB: plotters::prelude::DrawingBackend + 'a,
    CT: plotters::coord::CoordTranslate,
    S: plotters::coord::CoordTranslate,
{
    use plotters::prelude::*;
    chart
        .configure_series_labels()
        .position(position)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK.mix(0.3))
        .label_font(("sans-serif", 13))
        .draw()
        .map_err(|e| e.to_string())?;
    root.present().map_err(|e| e.to_string())
}
