//! `--report OUT.html`: one self-contained page (no network) with the report's tables and
//! its charts, drawn by plotters as inline SVG.

use std::fmt::Write as _;

use plotters::prelude::*;

use super::report::{IntentsReport, Report, percent};
use super::sweep::{Sweep, SweepPoint};

/// Each side's colour, in scenario order (then again).
const PALETTE: [RGBColor; 6] = [
    RGBColor(196, 64, 52),
    RGBColor(48, 102, 190),
    RGBColor(46, 140, 80),
    RGBColor(200, 140, 30),
    RGBColor(120, 72, 160),
    RGBColor(40, 150, 160),
];

fn colour(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

type Drawn = Result<(), Box<dyn std::error::Error>>;

/// The page of one battery.
pub fn page(report: &Report) -> Result<String, String> {
    let mut body = String::new();
    body.push_str(&summary(report, ""));
    body.push_str("<h2>Who wins</h2>\n");
    body.push_str(&svg(720, 320, |root| win_chart(root, report))?);
    body.push_str(&sides_table(report));
    let _ = writeln!(body, "<h2>How long, in {}</h2>", escape(&report.setup.clock));
    body.push_str(&svg(720, 320, |root| length_chart(root, report))?);
    let l = &report.length;
    let _ = writeln!(
        body,
        "<p>min {}, 10th percentile {}, median {}, 90th percentile {}, max {} (mean {:.2}); {} reached the limit of {}.</p>",
        l.min, l.p10, l.median, l.p90, l.max, l.mean, report.hit_limit, report.setup.limit
    );
    body.push_str("<h2>Each combatant</h2>\n");
    let wide = (report.combatants.len() as u32 * 120).clamp(720, 1400);
    body.push_str(&svg(wide, 340, |root| damage_chart(root, report))?);
    body.push_str(&combatants_table(report));
    if let Some(intents) = &report.intents {
        body.push_str(&intents_table(intents));
    }
    Ok(wrap(&format!("Balance: {}", report.setup.scenario), &body))
}

/// The page of a sweep: win rate against the value, then each value's figures.
pub fn sweep_page(sweep: &Sweep) -> Result<String, String> {
    let mut body = String::new();
    let Some(first) = sweep.points.first() else { return Err("a sweep with no values".to_owned()) };
    body.push_str(&summary(&first.report, " per value"));
    let _ = writeln!(
        body,
        "<p>Varied: <b>{}</b> from {} to {}.</p>",
        escape(&sweep.vary),
        fmt(sweep.points[0].value),
        fmt(sweep.points[sweep.points.len() - 1].value)
    );
    body.push_str("<h2>Win rate against the value</h2>\n");
    body.push_str(&svg(760, 380, |root| sweep_chart(root, sweep))?);
    body.push_str("<table><tr><th>value</th>");
    for side in &first.report.sides {
        let _ = write!(body, "<th>{} wins (95%)</th>", escape(&side.name));
    }
    let _ = writeln!(body, "<th>no winner</th><th>median {}</th></tr>", escape(&first.report.setup.clock));
    for p in &sweep.points {
        let _ = write!(body, "<tr><td>{}</td>", fmt(p.value));
        for side in &p.report.sides {
            let _ = write!(
                body,
                "<td>{} [{}, {}]</td>",
                percent(side.win_rate),
                percent(side.interval[0]),
                percent(side.interval[1])
            );
        }
        let _ = writeln!(body, "<td>{}</td><td>{}</td></tr>", p.report.no_winner, p.report.length.median);
    }
    body.push_str("</table>\n");
    Ok(wrap(&format!("Balance sweep: {}", first.report.setup.scenario), &body))
}

fn fmt(v: f64) -> String {
    format!("{v}")
}

fn summary(report: &Report, each: &str) -> String {
    let s = &report.setup;
    let mut out = format!(
        "<h1>{}</h1>\n<p>{} ({}): {} battles{each}, seeds {} to {}, each at most {} {}.</p>\n",
        escape(&s.scenario),
        escape(&s.scenario),
        escape(&s.ruleset),
        report.finished,
        s.seed,
        s.seed.wrapping_add(u64::from(s.battles.max(1) - 1)),
        s.limit,
        escape(&s.clock)
    );
    if report.finished < s.battles {
        let _ = writeln!(
            out,
            "<p class=warn>Interrupted: {} of {} battles finished.</p>",
            report.finished, s.battles
        );
    }
    out
}

fn sides_table(report: &Report) -> String {
    let mut out = String::from(
        "<table><tr><th>side</th><th>wins</th><th>win rate</th><th>95% interval</th><th>wiped out</th><th>AI</th></tr>\n",
    );
    for side in &report.sides {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{} to {}</td><td>{}</td><td>{}</td></tr>",
            escape(&side.name),
            side.wins,
            percent(side.win_rate),
            percent(side.interval[0]),
            percent(side.interval[1]),
            percent(side.wipe_rate),
            escape(&side.ai)
        );
    }
    let _ = writeln!(
        out,
        "<tr><td>no winner</td><td>{}</td><td colspan=4>{} reached the limit</td></tr></table>",
        report.no_winner, report.hit_limit
    );
    if let Some(versus) = &report.versus {
        let _ = writeln!(
            out,
            "<h2>One AI level against the other</h2>\n<p>{} battles, the sides swapped halfway.</p>\n<table><tr><th>level</th><th>wins</th><th>win rate</th><th>95% interval</th></tr>",
            versus.battles
        );
        for l in &versus.levels {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td><td>{} to {}</td></tr>",
                escape(&l.level),
                l.wins,
                percent(l.win_rate),
                percent(l.interval[0]),
                percent(l.interval[1])
            );
        }
        let _ = writeln!(
            out,
            "<tr><td>no winner</td><td>{}</td><td colspan=2></td></tr></table>",
            versus.no_winner
        );
    }
    out
}

fn combatants_table(report: &Report) -> String {
    let mut out = String::from(
        "<table><tr><th>combatant</th><th>side</th><th>survives</th><th>damage dealt</th><th>damage taken</th><th>falls first</th><th>actions</th></tr>\n",
    );
    for c in &report.combatants {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{:.2}</td><td>{:.2}</td><td>{}</td><td>{:.2}</td></tr>",
            escape(&c.name),
            escape(&c.side),
            percent(c.survival_rate),
            c.damage_dealt,
            c.damage_taken,
            percent(c.fell_first_rate),
            c.actions
        );
    }
    out.push_str("</table>\n<p class=note>Damage in the ruleset's own units, mean per battle.</p>\n");
    out
}

/// What the AI did with what the rules offered it, kind by kind.
fn intents_table(intents: &IntentsReport) -> String {
    let mut out = format!(
        "<h2>What the AI chose</h2>\n<p>{:.1} decisions of the AI per 100 battles; at each, the kinds of intent the rules would have accepted.</p>\n",
        intents.decisions_per_100
    );
    out.push_str(
        "<table><tr><th>intent kind</th><th>offered per 100 battles</th><th>taken per 100 battles</th><th>battles taken in</th></tr>\n",
    );
    for k in &intents.kinds {
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{:.1}</td><td>{:.1}</td><td>{}</td></tr>",
            escape(&k.kind),
            k.offered_per_100,
            k.taken_per_100,
            k.battles_taken
        );
    }
    out.push_str("</table>\n");
    let never = if intents.never_taken.is_empty() {
        "none".to_owned()
    } else {
        intents.never_taken.iter().map(|k| escape(k)).collect::<Vec<_>>().join(", ")
    };
    let _ = writeln!(out, "<p class=note>Offered but never taken: {never}.</p>");
    out
}

/// Draws into an SVG of this size and returns its text.
fn svg(
    width: u32,
    height: u32,
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Drawn,
) -> Result<String, String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(|e| e.to_string())?;
        draw(&root).map_err(|e| format!("drawing a chart: {e}"))?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(format!("<div class=chart>{text}</div>\n"))
}

fn win_chart(root: &DrawingArea<SVGBackend, plotters::coord::Shift>, report: &Report) -> Drawn {
    let n = report.sides.len();
    let names: Vec<String> = report.sides.iter().map(|s| s.name.clone()).collect();
    let label = |x: &f64| name_at(&names, *x);
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(52)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..1f64)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 16))
        .light_line_style(RGBColor(238, 238, 238))
        .disable_x_mesh()
        .x_labels(n.max(1) * 2 + 1)
        .x_label_formatter(&label)
        .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
        .y_desc("win rate")
        .draw()?;
    for (i, side) in report.sides.iter().enumerate() {
        let x = i as f64;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x - 0.3, 0.0), (x + 0.3, side.win_rate)],
            colour(i).mix(0.8).filled(),
        )))?;
        let [lo, hi] = side.interval;
        let whiskers = [
            vec![(x, lo), (x, hi)],
            vec![(x - 0.06, lo), (x + 0.06, lo)],
            vec![(x - 0.06, hi), (x + 0.06, hi)],
        ];
        chart.draw_series(whiskers.into_iter().map(|w| PathElement::new(w, BLACK.stroke_width(2))))?;
    }
    Ok(())
}

fn length_chart(root: &DrawingArea<SVGBackend, plotters::coord::Shift>, report: &Report) -> Drawn {
    let l = &report.length;
    let top = l.histogram.iter().map(|h| h[1]).max().unwrap_or(1);
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(52)
        .build_cartesian_2d((l.min..l.max).into_segmented(), 0u32..top + top / 10 + 1)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 16))
        .light_line_style(RGBColor(238, 238, 238))
        .disable_x_mesh()
        .x_desc(report.setup.clock.clone())
        .y_desc("battles")
        .draw()?;
    chart.draw_series(
        Histogram::vertical(&chart)
            .style(colour(1).mix(0.7).filled())
            .margin(2)
            .data(l.histogram.iter().map(|h| (h[0], h[1]))),
    )?;
    Ok(())
}

fn damage_chart(root: &DrawingArea<SVGBackend, plotters::coord::Shift>, report: &Report) -> Drawn {
    let n = report.combatants.len();
    let top = report.combatants.iter().map(|c| c.damage_dealt.max(c.damage_taken)).fold(1.0f64, f64::max);
    let names: Vec<String> = report.combatants.iter().map(|c| c.name.clone()).collect();
    let label = |x: &f64| name_at(&names, *x);
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..top * 1.1)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 16))
        .light_line_style(RGBColor(238, 238, 238))
        .disable_x_mesh()
        .x_labels(n.max(1) * 2 + 1)
        .x_label_formatter(&label)
        .y_desc("damage per battle")
        .draw()?;
    let sides: Vec<&str> = report.sides.iter().map(|s| s.id.as_str()).collect();
    for (i, c) in report.combatants.iter().enumerate() {
        let x = i as f64;
        let hue = colour(sides.iter().position(|s| *s == c.side).unwrap_or(0));
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x - 0.38, 0.0), (x, c.damage_dealt)],
            hue.filled(),
        )))?;
        chart.draw_series(std::iter::once(Rectangle::new(
            [(x, 0.0), (x + 0.38, c.damage_taken)],
            hue.mix(0.35).filled(),
        )))?;
    }
    root.draw(&Text::new("solid: dealt, pale: taken", (70, 16), ("sans-serif", 15)))?;
    Ok(())
}

fn sweep_chart(root: &DrawingArea<SVGBackend, plotters::coord::Shift>, sweep: &Sweep) -> Drawn {
    let values: Vec<f64> = sweep.points.iter().map(|p| p.value).collect();
    let (lo, hi) = (values[0], values[values.len() - 1]);
    let pad = ((hi - lo) * 0.05).max(0.5);
    let mut chart = ChartBuilder::on(root)
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(52)
        .build_cartesian_2d((lo - pad)..(hi + pad), 0f64..1f64)?;
    chart
        .configure_mesh()
        .label_style(("sans-serif", 15))
        .axis_desc_style(("sans-serif", 16))
        .light_line_style(RGBColor(238, 238, 238))
        .x_desc(sweep.vary.clone())
        .y_desc("win rate")
        .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
        .draw()?;
    let sides = sweep.points[0].report.sides.len();
    for s in 0..sides {
        let hue = colour(s);
        fn at(p: &SweepPoint, s: usize) -> &super::report::SideReport {
            &p.report.sides[s]
        }
        chart
            .draw_series(LineSeries::new(
                sweep.points.iter().map(|p| (p.value, at(p, s).win_rate)),
                hue.stroke_width(3),
            ))?
            .label(sweep.points[0].report.sides[s].name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], hue.stroke_width(3)));
        chart.draw_series(sweep.points.iter().map(|p| {
            ErrorBar::new_vertical(
                p.value,
                at(p, s).interval[0],
                at(p, s).win_rate,
                at(p, s).interval[1],
                hue.stroke_width(1),
                10,
            )
        }))?;
    }
    chart.configure_series_labels().background_style(WHITE.mix(0.9)).border_style(BLACK).draw()?;
    Ok(())
}

/// The name of bar `x` of a chart with a bar at each whole number, none between.
fn name_at(names: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 0.01 && i >= 0.0 {
        names.get(i as usize).cloned().unwrap_or_default()
    } else {
        String::new()
    }
}

fn wrap(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=en><head><meta charset=utf-8><title>{}</title>\n<style>\n\
         body {{ font-family: sans-serif; max-width: 1440px; margin: 24px auto; padding: 0 16px; color: #222; }}\n\
         table {{ border-collapse: collapse; margin: 8px 0 16px; }}\n\
         th, td {{ border: 1px solid #ccc; padding: 4px 10px; text-align: right; }}\n\
         th:first-child, td:first-child {{ text-align: left; }}\n\
         .chart svg {{ max-width: 100%; height: auto; }}\n\
         .warn {{ color: #a33; font-weight: bold; }} .note {{ color: #666; font-size: 90%; }}\n\
         </style></head><body>\n{body}<p class=note>Made by <code>fray sim</code>.</p>\n</body></html>\n",
        escape(title)
    )
}

/// Text for HTML.
fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}
