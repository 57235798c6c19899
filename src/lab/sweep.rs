//! Sweeps: `--vary COMBATANT.FIELD=FROM..TO[:STEP]` rewrites one number of a combatant's (or a
//! mount's) sheet in the scenario's text for each value, for any ruleset: the field is found
//! in the file as written, and each rewritten scenario goes through the ruleset's own checks.

use std::ops::Range;

use serde::Serialize;

use super::report::{self, Report};

/// At most this many values in one sweep.
pub const MAX_POINTS: usize = 101;

/// A parsed `--vary`.
#[derive(Clone, Debug, PartialEq)]
pub struct Vary {
    /// The combatant's or mount's id.
    pub who: String,
    /// The field's path inside its sheet, e.g. `attributes.power` or `skills.Blades`.
    pub field: String,
    /// The values, in order.
    pub values: Vec<f64>,
}

impl Vary {
    /// Parses `WHO.FIELD=FROM..TO[:STEP]` (both ends included; STEP is 1 by default).
    pub fn parse(spec: &str) -> Result<Vary, String> {
        let bad = |why: &str| format!("--vary {spec}: {why} (expected COMBATANT.FIELD=FROM..TO[:STEP])");
        let (path, range) = spec.split_once('=').ok_or_else(|| bad("no '='"))?;
        let (who, field) =
            path.split_once('.').ok_or_else(|| bad("no '.' between the combatant and its field"))?;
        if who.is_empty() || field.is_empty() || field.split('.').any(str::is_empty) {
            return Err(bad("an empty name"));
        }
        let (span, step) = match range.split_once(':') {
            Some((span, step)) => {
                (span, step.trim().parse::<f64>().map_err(|_| bad("STEP is not a number"))?)
            }
            None => (range, 1.0),
        };
        let (from, to) = span.split_once("..").ok_or_else(|| bad("no '..' between FROM and TO"))?;
        let from: f64 = from.trim().parse().map_err(|_| bad("FROM is not a number"))?;
        let to: f64 = to.trim().parse().map_err(|_| bad("TO is not a number"))?;
        if !(from.is_finite() && to.is_finite() && step.is_finite()) || step <= 0.0 {
            return Err(bad("STEP must be above 0"));
        }
        if to < from {
            return Err(bad("TO is below FROM"));
        }
        let count = ((to - from) / step + 1e-9).floor() + 1.0;
        if count > MAX_POINTS as f64 {
            return Err(bad(&format!("{count} values; at most {MAX_POINTS}")));
        }
        let values = (0..count as usize).map(|k| from + step * k as f64).collect();
        Ok(Vary { who: who.to_owned(), field: field.to_owned(), values })
    }

    /// The name shown for the field, e.g. `ogre.vitality`.
    pub fn name(&self) -> String {
        format!("{}.{}", self.who, self.field)
    }

    /// Checks that the field is a number written in the scenario (or a field its struct
    /// leaves to its default), and that every value may be written there (whole numbers
    /// where the file has a whole number). A field that is not in the sheet's schema at all
    /// is refused by the ruleset's own reading of the first value, which names it.
    pub fn check(&self, text: &str) -> Result<(), String> {
        if let Spot::Number(_, true) = self.find(text)?
            && let Some(v) = self.values.iter().find(|v| v.fract() != 0.0)
        {
            return Err(format!("--vary {}: the field is a whole number, {v} is not", self.name()));
        }
        Ok(())
    }

    /// The scenario's text with the field set to `value`.
    pub fn apply(&self, text: &str, value: f64) -> Result<String, String> {
        let all_whole = self.values.iter().all(|v| v.fract() == 0.0);
        let number = |whole: bool| if whole { format!("{}", value as i64) } else { format!("{value}") };
        Ok(match self.find(text)? {
            Spot::Number(span, whole) => {
                format!("{}{}{}", &text[..span.start], number(whole), &text[span.end..])
            }
            Spot::Missing(at, field) => {
                format!("{}{field}: {}, {}", &text[..at], number(all_whole), &text[at..])
            }
        })
    }

    /// Where the field's number is in the text (and whether it is written as a whole
    /// number), or where a field its struct leaves out would be written.
    fn find<'t>(&'t self, text: &'t str) -> Result<Spot<'t>, String> {
        let root =
            Parser::new(text).document().map_err(|e| format!("--vary: the scenario does not read: {e}"))?;
        let sheet = sheet_of(&root, &self.who).map_err(|e| format!("--vary {}: {e}", self.name()))?;
        let mut node = sheet;
        let parts: Vec<&str> = self.field.split('.').collect();
        for (i, part) in parts.iter().enumerate() {
            match (node.child(part), node) {
                (Some(child), _) => node = child,
                // The last part, left out of its struct: written at the struct's start.
                (None, Node::Struct(open, _)) if i + 1 == parts.len() => {
                    return Ok(Spot::Missing(*open, part));
                }
                (None, _) => return Err(self.no_such_field(sheet)),
            }
        }
        match node {
            Node::Number(span) => {
                let token = &text[span.clone()];
                let whole = !token.contains(['.', 'e', 'E']) || token.starts_with("0x");
                Ok(Spot::Number(span.clone(), whole))
            }
            _ => Err(self.no_such_field(sheet)),
        }
    }

    fn no_such_field(&self, sheet: &Node) -> String {
        let mut spots = Vec::new();
        sheet.number_spans(String::new(), &mut spots);
        let fields: Vec<String> = spots.into_iter().map(|(field, _)| field).collect();
        let known = if fields.is_empty() { "none".to_owned() } else { fields.join(", ") };
        format!(
            "--vary {}: '{}' is not a number in {}'s sheet (its numbers: {known})",
            self.name(),
            self.field,
            self.who
        )
    }
}

/// One number of a sheet as the scenario's text writes it: what the editor's sheet form shows.
#[derive(Clone, Debug, PartialEq)]
pub struct SheetNumber {
    /// Its path inside the sheet, e.g. `attributes.power` (as `--vary` names it).
    pub field: String,
    /// Its value.
    pub value: f64,
    /// Written as a whole number.
    pub whole: bool,
}

/// Every number written in the sheet of combatant or mount `who`, in the file's order.
pub fn sheet_numbers(text: &str, who: &str) -> Result<Vec<SheetNumber>, String> {
    let root = Parser::new(text).document().map_err(|e| format!("the scenario does not read: {e}"))?;
    let sheet = sheet_of(&root, who)?;
    let mut spots = Vec::new();
    sheet.number_spans(String::new(), &mut spots);
    Ok(spots
        .into_iter()
        .filter_map(|(field, span)| {
            let token = &text[span];
            let value = token.parse::<f64>().ok()?;
            Some(SheetNumber { field, value, whole: !token.contains(['.', 'e', 'E']) })
        })
        .collect())
}

/// The scenario's text with one number of `who`'s sheet set to `value` (unchecked: read it
/// back through the ruleset, which says whether the value is allowed).
pub fn set_sheet_number(text: &str, who: &str, field: &str, value: f64) -> Result<String, String> {
    let vary = Vary { who: who.to_owned(), field: field.to_owned(), values: vec![value] };
    vary.check(text)?;
    vary.apply(text, value)
}

/// Where the sheet of combatant or mount `who` is written in the scenario's text (from its
/// opening parenthesis to just after its closing one).
pub fn sheet_span(text: &str, who: &str) -> Result<Range<usize>, String> {
    let root = Parser::new(text).document().map_err(|e| format!("the scenario does not read: {e}"))?;
    let Node::Struct(inside, _) = sheet_of(&root, who)? else {
        return Err(format!("{who}'s sheet is not written as a ( … ) block"));
    };
    let mut parser = Parser { text, at: inside.saturating_sub(1) };
    parser.value(0)?;
    Ok(inside.saturating_sub(1)..parser.at)
}

/// The scenario's text with the sheet of `who` written as `sheet` (unchecked: read it back
/// through the ruleset).
pub fn set_sheet_text(text: &str, who: &str, sheet: &str) -> Result<String, String> {
    let span = sheet_span(text, who)?;
    let sheet = sheet.trim();
    let edited = format!("{}{}{}", &text[..span.start], sheet, &text[span.end..]);
    // The text typed must be the sheet and no more: `(…), location: "keep"` would reach
    // past it into the combatant's other fields.
    match sheet_span(&edited, who) {
        Ok(read) if read == (span.start..span.start + sheet.len()) => Ok(edited),
        Ok(_) => Err(format!("{who}'s sheet must be one ( … ) block, with nothing after it")),
        Err(why) => Err(why),
    }
}

/// How far out a number's accepted values are looked for.
const RANGE_LIMIT: f64 = 1_000_000.0;

/// The values of one number of `who`'s sheet that `accepts` (the ruleset's checks, reading
/// the edited text) takes: the lowest and the highest, each `None` when every value out to
/// a million is taken. Found by trying values outward from the number's own, doubling the
/// step, then halving it at the first refusal (to a whole number, or to a hundredth): so it
/// assumes the accepted values are one interval, as a range check makes them.
pub fn accepted_range(
    text: &str,
    who: &str,
    number: &SheetNumber,
    accepts: impl Fn(&str) -> bool,
) -> (Option<f64>, Option<f64>) {
    let takes = |v: f64| set_sheet_number(text, who, &number.field, v).is_ok_and(|t| accepts(&t));
    let edge = |direction: f64| {
        let (mut good, mut step) = (number.value, if number.whole { 1.0 } else { 0.1 });
        let mut bad = loop {
            let next = number.value + direction * step;
            if next.abs() > RANGE_LIMIT {
                return None;
            }
            if !takes(next) {
                break next;
            }
            good = next;
            step *= 2.0;
        };
        let precision = if number.whole { 1.0 } else { 0.01 };
        while (bad - good).abs() > precision {
            let middle = (good + bad) / 2.0;
            let middle = if number.whole { middle.round() } else { middle };
            if middle == good || middle == bad {
                break;
            }
            if takes(middle) { good = middle } else { bad = middle }
        }
        Some(good)
    };
    (edge(-1.0), edge(1.0))
}

/// The sheet of combatant or mount `who` in the parsed scenario.
fn sheet_of<'a, 't>(root: &'a Node<'t>, who: &str) -> Result<&'a Node<'t>, String> {
    let entries = ["combatants", "mounts"]
        .iter()
        .filter_map(|list| match root.field(list) {
            Some(Node::Seq(items)) => Some(items.iter()),
            _ => None,
        })
        .flatten();
    entries
        .filter(|e| matches!(e.field("id"), Some(Node::Str(id)) if id == who))
        .find_map(|e| e.field("sheet"))
        .ok_or_else(|| format!("no combatant or mount '{who}' with a sheet in the scenario"))
}

/// Where `--vary` writes its value.
enum Spot<'t> {
    /// Over a number written in the file (whole or not).
    Number(Range<usize>, bool),
    /// As a new field at this place (just inside a struct's parenthesis).
    Missing(usize, &'t str),
}

/// A RON value, with the place of each number in the text.
#[derive(Debug)]
enum Node<'t> {
    Number(Range<usize>),
    Str(String),
    Ident(&'t str),
    /// A struct: where its fields start (just after the parenthesis), and its fields (a
    /// named one's name is dropped). `()` reads as an empty struct.
    Struct(usize, Vec<(&'t str, Node<'t>)>),
    Seq(Vec<Node<'t>>),
    Map(Vec<(Node<'t>, Node<'t>)>),
    Other,
}

impl<'t> Node<'t> {
    fn field(&self, name: &str) -> Option<&Node<'t>> {
        match self {
            Node::Struct(_, fields) => fields.iter().find(|(n, _)| *n == name).map(|(_, v)| v),
            _ => None,
        }
    }

    /// A struct's field, a map's entry by its key, or a list's item by its index.
    fn child(&self, part: &str) -> Option<&Node<'t>> {
        match self {
            Node::Struct(..) => self.field(part),
            Node::Map(entries) => {
                entries.iter().find(|(k, _)| k.key().as_deref() == Some(part)).map(|(_, v)| v)
            }
            Node::Seq(items) => part.parse::<usize>().ok().and_then(|i| items.get(i)),
            _ => None,
        }
    }

    fn key(&self) -> Option<String> {
        match self {
            Node::Str(s) => Some(s.clone()),
            Node::Ident(s) => Some((*s).to_owned()),
            _ => None,
        }
    }

    /// The paths of every number under this node, with where each is written.
    fn number_spans(&self, path: String, out: &mut Vec<(String, Range<usize>)>) {
        let join = |p: &str| if path.is_empty() { p.to_owned() } else { format!("{path}.{p}") };
        match self {
            Node::Number(span) if !path.is_empty() => out.push((path, span.clone())),
            Node::Struct(_, fields) => fields.iter().for_each(|(n, v)| v.number_spans(join(n), out)),
            Node::Map(entries) => entries
                .iter()
                .filter_map(|(k, v)| Some((k.key()?, v)))
                .for_each(|(k, v)| v.number_spans(join(&k), out)),
            Node::Seq(items) => {
                items.iter().enumerate().for_each(|(i, v)| v.number_spans(join(&i.to_string()), out))
            }
            _ => {}
        }
    }
}

/// Just enough of RON to find numbers: values, comments, strings, raw strings, attributes.
struct Parser<'t> {
    text: &'t str,
    at: usize,
}

/// Nesting deeper than this is refused (a hostile file cannot overflow the stack).
const MAX_DEPTH: usize = 64;

impl<'t> Parser<'t> {
    fn new(text: &'t str) -> Self {
        Parser { text, at: 0 }
    }

    fn document(mut self) -> Result<Node<'t>, String> {
        self.skip();
        while self.rest().starts_with("#!") {
            let end = self.rest().find(']').ok_or_else(|| self.error("an unclosed attribute"))?;
            self.at += end + 1;
            self.skip();
        }
        let node = self.value(0)?;
        self.skip();
        if self.at < self.text.len() {
            return Err(self.error("text after the scenario"));
        }
        Ok(node)
    }

    fn rest(&self) -> &'t str {
        &self.text[self.at..]
    }

    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }

    fn error(&self, what: &str) -> String {
        let line = self.text[..self.at].matches('\n').count() + 1;
        format!("line {line}: {what}")
    }

    /// Skips white space and comments (block comments nest).
    fn skip(&mut self) {
        loop {
            let rest = self.rest();
            let trimmed = rest.trim_start();
            self.at += rest.len() - trimmed.len();
            if trimmed.starts_with("//") {
                self.at += trimmed.find('\n').unwrap_or(trimmed.len());
            } else if trimmed.starts_with("/*") {
                let mut depth = 0usize;
                let bytes = trimmed.as_bytes();
                let mut i = 0;
                while i + 1 < bytes.len() {
                    match &bytes[i..i + 2] {
                        b"/*" => (depth, i) = (depth + 1, i + 2),
                        b"*/" => {
                            (depth, i) = (depth - 1, i + 2);
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => i += 1,
                    }
                }
                self.at += if depth == 0 { i } else { bytes.len() };
            } else {
                return;
            }
        }
    }

    fn expect(&mut self, c: char) -> Result<(), String> {
        self.skip();
        if self.peek() == Some(c) {
            self.at += c.len_utf8();
            Ok(())
        } else {
            Err(self.error(&format!("'{c}' expected")))
        }
    }

    /// Items up to `close`, separated by commas (a trailing one allowed).
    fn items<T>(
        &mut self,
        close: char,
        mut item: impl FnMut(&mut Self) -> Result<T, String>,
    ) -> Result<Vec<T>, String> {
        let mut out = Vec::new();
        loop {
            self.skip();
            if self.peek() == Some(close) {
                self.at += 1;
                return Ok(out);
            }
            out.push(item(self)?);
            self.skip();
            match self.peek() {
                Some(',') => self.at += 1,
                Some(c) if c == close => {}
                _ => return Err(self.error(&format!("',' or '{close}' expected"))),
            }
        }
    }

    fn ident(&mut self) -> &'t str {
        let rest = self.rest();
        let len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(rest.len());
        self.at += len;
        &rest[..len]
    }

    fn value(&mut self, depth: usize) -> Result<Node<'t>, String> {
        if depth > MAX_DEPTH {
            return Err(self.error("nested too deep"));
        }
        self.skip();
        let rest = self.rest();
        let Some(c) = self.peek() else { return Err(self.error("a value expected")) };
        match c {
            '"' => self.string().map(Node::Str),
            'r' if rest.starts_with("r\"") || rest.starts_with("r#") => self.raw_string().map(Node::Str),
            '\'' => {
                let end = rest[1..].find('\'').ok_or_else(|| self.error("an unclosed character"))?;
                self.at += end + 2;
                Ok(Node::Other)
            }
            '[' => {
                self.at += 1;
                self.items(']', |p| p.value(depth + 1)).map(Node::Seq)
            }
            '{' => {
                self.at += 1;
                self.items('}', |p| {
                    let key = p.value(depth + 1)?;
                    p.expect(':')?;
                    Ok((key, p.value(depth + 1)?))
                })
                .map(Node::Map)
            }
            '(' => self.parenthesised(depth),
            c if c.is_ascii_digit() || c == '-' || c == '+' || c == '.' => {
                let start = self.at;
                let mut prev = ' ';
                let len = rest
                    .find(|c: char| {
                        let ok = c.is_ascii_alphanumeric()
                            || c == '.'
                            || c == '_'
                            || ((c == '-' || c == '+') && (matches!(prev, 'e' | 'E') || prev == ' '));
                        prev = c;
                        !ok
                    })
                    .unwrap_or(rest.len());
                self.at += len;
                Ok(Node::Number(start..start + len))
            }
            c if c.is_alphabetic() || c == '_' => {
                let name = self.ident();
                self.skip();
                if self.peek() == Some('(') {
                    return self.parenthesised(depth);
                }
                Ok(match name {
                    "true" | "false" => Node::Other,
                    _ => Node::Ident(name),
                })
            }
            _ => Err(self.error(&format!("unexpected '{c}'"))),
        }
    }

    /// `( ... )`: a struct when it starts with `name:`, else a tuple (kept as a list).
    fn parenthesised(&mut self, depth: usize) -> Result<Node<'t>, String> {
        self.expect('(')?;
        let open = self.at;
        self.skip();
        if self.peek() == Some(')') {
            self.at += 1;
            return Ok(Node::Struct(open, Vec::new()));
        }
        let mark = self.at;
        let is_struct = if self.peek().is_some_and(|c| c.is_alphabetic() || c == '_') {
            self.ident();
            self.skip();
            let colon = self.peek() == Some(':') && !self.rest().starts_with("::");
            self.at = mark;
            colon
        } else {
            false
        };
        if is_struct {
            self.items(')', |p| {
                p.skip();
                let name = p.ident();
                p.expect(':')?;
                Ok((name, p.value(depth + 1)?))
            })
            .map(|fields| Node::Struct(open, fields))
        } else {
            self.items(')', |p| p.value(depth + 1)).map(Node::Seq)
        }
    }

    fn string(&mut self) -> Result<String, String> {
        self.at += 1;
        let mut out = String::new();
        let mut chars = self.rest().char_indices();
        while let Some((i, c)) = chars.next() {
            match c {
                '"' => {
                    self.at += i + 1;
                    return Ok(out);
                }
                '\\' => {
                    if let Some((_, e)) = chars.next() {
                        out.push(match e {
                            'n' => '\n',
                            't' => '\t',
                            other => other,
                        });
                    }
                }
                c => out.push(c),
            }
        }
        Err(self.error("an unclosed string"))
    }

    fn raw_string(&mut self) -> Result<String, String> {
        self.at += 1;
        let hashes = self.rest().len() - self.rest().trim_start_matches('#').len();
        self.at += hashes;
        self.expect('"')?;
        let close = format!("\"{}", "#".repeat(hashes));
        let end = self.rest().find(&close).ok_or_else(|| self.error("an unclosed raw string"))?;
        let out = self.rest()[..end].to_owned();
        self.at += end + close.len();
        Ok(out)
    }
}

/// A sweep's results: one report per value of the varied field.
#[derive(Clone, Debug, Serialize)]
pub struct Sweep {
    /// The JSON form's version ([`report::SCHEMA`]).
    pub schema: u32,
    /// The varied field, e.g. `ogre.vitality`.
    pub vary: String,
    /// Each value's report, in order.
    pub points: Vec<SweepPoint>,
}

/// One value of a sweep.
#[derive(Clone, Debug, Serialize)]
pub struct SweepPoint {
    /// The field's value.
    pub value: f64,
    /// The battery's report at it.
    pub report: Report,
}

impl Sweep {
    /// The sweep for a terminal: each value's win rates and median length.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let Some(first) = self.points.first() else { return String::new() };
        let mut s = format!(
            "{} ({}): {} battles per value from seed {}, varying {}\n\n{:>8}",
            first.report.setup.scenario,
            first.report.setup.ruleset,
            first.report.setup.battles,
            first.report.setup.seed,
            self.vary,
            "value"
        );
        for side in &first.report.sides {
            let _ = write!(s, "  {:>24}", format!("{} wins", side.name));
        }
        let _ = writeln!(s, "  {:>9}  median {}", "no winner", first.report.setup.clock);
        for p in &self.points {
            let _ = write!(s, "{:>8}", p.value);
            for side in &p.report.sides {
                let cell = format!(
                    "{} [{}, {}]",
                    report::percent(side.win_rate),
                    report::percent(side.interval[0]),
                    report::percent(side.interval[1])
                );
                let _ = write!(s, "  {cell:>24}");
            }
            let _ = writeln!(s, "  {:>9}  {}", p.report.no_winner, p.report.length.median);
        }
        if let Some(last) = self.points.last()
            && last.report.finished < last.report.setup.battles
        {
            let _ = writeln!(
                s,
                "interrupted: the last value has {} of {} battles",
                last.report.finished, last.report.setup.battles
            );
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r##"#![enable(implicit_some)]
// A comment with "quotes" and (brackets
Scenario(
    name: "t", /* nested /* block */ comment */
    rules: (weapons: {"axe": (name: "Axe", kind: Melee, damage: 5)}),
    combatants: [
        (id: "imp", name: "Imp", sheet: (attributes: (power: 3, grace: 2), evasion: 7.5, skills: {Blades: 2, "Old lore": 1}, wounds: [1, 2])),
        (id: "ogre", name: r#"Ogre"#, sheet: (power: -4)),
        (id: "bare", name: "Bare", sheet: ()),
    ],
    mounts: [(id: "mare", name: "Mare", sheet: (speed: 6))],
)"##;

    fn vary(spec: &str) -> Vary {
        Vary::parse(spec).expect("a good --vary")
    }

    #[test]
    fn the_spec_reads_with_its_default_step_and_its_errors() {
        assert_eq!(vary("imp.attributes.power=2..5").values, vec![2.0, 3.0, 4.0, 5.0]);
        assert_eq!(vary("imp.evasion=1..2:0.5").values, vec![1.0, 1.5, 2.0]);
        for (spec, why) in [
            ("imp.power", "no '='"),
            ("imp=1..2", "no '.'"),
            ("imp.power=3..1", "TO is below FROM"),
            ("imp.power=1..2:0", "STEP must be above 0"),
            ("imp.power=1..1000", "at most"),
        ] {
            let err = Vary::parse(spec).expect_err(spec);
            assert!(err.contains(why), "{spec}: {err}");
        }
    }

    #[test]
    fn the_editor_lists_a_sheets_numbers_in_file_order_and_sets_one() {
        let imp = sheet_numbers(TEXT, "imp").expect("the imp's sheet");
        let listed: Vec<(&str, f64, bool)> =
            imp.iter().map(|n| (n.field.as_str(), n.value, n.whole)).collect();
        assert_eq!(
            listed,
            vec![
                ("attributes.power", 3.0, true),
                ("attributes.grace", 2.0, true),
                ("evasion", 7.5, false),
                ("skills.Blades", 2.0, true),
                ("skills.Old lore", 1.0, true),
                ("wounds.0", 1.0, true),
                ("wounds.1", 2.0, true),
            ]
        );
        assert_eq!(sheet_numbers(TEXT, "ogre").expect("ogre")[0].value, -4.0);
        assert!(sheet_numbers(TEXT, "bare").expect("an empty sheet").is_empty());
        assert_eq!(sheet_numbers(TEXT, "mare").expect("a mount's sheet")[0].field, "speed");
        let none = sheet_numbers(TEXT, "dragon").expect_err("no dragon");
        assert_eq!(none, "no combatant or mount 'dragon' with a sheet in the scenario");
        let set = set_sheet_number(TEXT, "imp", "skills.Old lore", 3.0).expect("set");
        assert_eq!(set, TEXT.replace("\"Old lore\": 1", "\"Old lore\": 3"));
        let half = set_sheet_number(TEXT, "imp", "attributes.power", 2.5).expect_err("a whole number");
        assert!(half.contains("whole number"), "{half}");
    }

    #[test]
    fn a_sheet_is_found_and_written_again_whole() {
        let span = sheet_span(TEXT, "imp").expect("the imp's sheet");
        assert!(TEXT[span.clone()].starts_with("(attributes:") && TEXT[span].ends_with("wounds: [1, 2])"));
        assert_eq!(&TEXT[sheet_span(TEXT, "bare").expect("bare")], "()");
        let set = set_sheet_text(TEXT, "ogre", " (power: 5, weapons: [\"axe\"]) ").expect("set");
        assert_eq!(set, TEXT.replace("sheet: (power: -4)", "sheet: (power: 5, weapons: [\"axe\"])"));
        assert!(sheet_span(TEXT, "dragon").is_err());
        // Text reaching past the sheet into the combatant's other fields is refused.
        let past = set_sheet_text(TEXT, "ogre", "(power: 5), side: \"b\"").expect_err("past the sheet");
        assert!(past.contains("nothing after it"), "{past}");
    }

    #[test]
    fn a_numbers_accepted_range_is_found_through_the_checks() {
        let power = &sheet_numbers(TEXT, "imp").expect("sheet")[0];
        // A check that takes power 1 to 12, as a ruleset's would.
        let power_of = |text: &str| sheet_numbers(text, "imp").map(|n| n[0].value).unwrap_or(-1.0);
        let checks = |text: &str| (1.0..=12.0).contains(&power_of(text));
        assert_eq!(accepted_range(TEXT, "imp", power, checks), (Some(1.0), Some(12.0)));
        let no_top = |text: &str| power_of(text) >= 0.0;
        assert_eq!(accepted_range(TEXT, "imp", power, no_top), (Some(0.0), None));
        let evasion = &sheet_numbers(TEXT, "imp").expect("sheet")[2];
        let up_to =
            |text: &str| sheet_numbers(text, "imp").is_ok_and(|n| n[2].value <= 9.25 && n[2].value >= 0.5);
        let (low, high) = accepted_range(TEXT, "imp", evasion, up_to);
        let near = |found: Option<f64>, edge: f64| found.is_some_and(|v| (v - edge).abs() <= 0.01);
        assert!(near(low, 0.5) && near(high, 9.25), "{low:?} {high:?}");
    }

    #[test]
    fn a_number_of_a_sheet_is_rewritten_and_nothing_else() {
        let out = vary("imp.attributes.power=3..4").apply(TEXT, 4.0).expect("found");
        assert_eq!(out, TEXT.replace("power: 3,", "power: 4,"));
        let out = vary("imp.skills.Old lore=1..2").apply(TEXT, 2.0).expect("a quoted key");
        assert!(out.contains("\"Old lore\": 2}"));
        let out = vary("ogre.power=-4..0").apply(TEXT, -1.0).expect("a negative number");
        assert!(out.contains("(power: -1)"));
        assert!(vary("mare.speed=6..8").apply(TEXT, 8.0).expect("a mount").contains("(speed: 8)"));
        assert!(vary("imp.wounds.1=1..3").apply(TEXT, 3.0).expect("a list item").contains("[1, 3]"));
        assert!(vary("imp.evasion=7..8:0.5").apply(TEXT, 7.5).is_ok());
    }

    #[test]
    fn a_field_left_to_its_default_is_written_into_its_struct() {
        let v = vary("imp.vitality=1..2");
        assert_eq!(v.check(TEXT), Ok(()));
        let out = v.apply(TEXT, 2.0).expect("inserted");
        assert!(out.contains("sheet: (vitality: 2, attributes: (power: 3"), "{out}");
        let out = vary("imp.attributes.wit=1..2:0.5").apply(TEXT, 1.5).expect("inserted");
        assert!(out.contains("attributes: (wit: 1.5, power: 3"), "{out}");
        let out = vary("bare.speed=1..2").apply(TEXT, 1.0).expect("into an empty sheet");
        assert!(out.contains("sheet: (speed: 1, )"), "{out}");
    }

    #[test]
    fn a_field_that_is_not_there_is_named_with_the_ones_that_are() {
        let err = vary("imp.nothing.vitality=1..2").check(TEXT).expect_err("no such struct");
        assert!(
            err.contains("'nothing.vitality'") && err.contains("attributes.power, attributes.grace, evasion"),
            "{err}"
        );
        let err = vary("nobody.power=1..2").check(TEXT).expect_err("no such combatant");
        assert!(err.contains("no combatant or mount 'nobody'"), "{err}");
        let err = vary("imp.attributes=1..2").check(TEXT).expect_err("not a number");
        assert!(err.contains("is not a number"), "{err}");
        let err = vary("imp.attributes.power=1..2:0.5").check(TEXT).expect_err("a whole number");
        assert!(err.contains("whole number"), "{err}");
    }
}
