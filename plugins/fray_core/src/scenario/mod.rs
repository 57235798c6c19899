//! Scenario files (RON): the ruleset-agnostic part (sides, locations, mounts, combatants)
//! with slots for the ruleset's own data, how they are checked, and how they are spawned.
//!
//! Syntax and type errors come back with a line and column; semantic errors (a reference to
//! an unknown id, a duplicate id, an absurd size) with a message naming the object.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use bevy_ecs::prelude::*;
use ron::extensions::Extensions;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use crate::ids::{CombatantId, LocationId, MountId, SeatId, SideId};
use crate::table::Controller;

mod check;
mod spawn;

pub use spawn::clear_table;

/// Files larger than this are refused before parsing.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;
/// At most this many combatants in a scenario.
pub const MAX_COMBATANTS: usize = 1024;
/// At most this many players' seats in a scenario.
pub const MAX_SEATS: usize = 64;
/// At most this many locations in a scenario.
pub const MAX_LOCATIONS: usize = 256;
/// At most this many mounts in a scenario.
pub const MAX_MOUNTS: usize = 1024;
/// Board coordinates beyond this are refused as absurd.
pub const MAX_COORDINATE: f32 = 100_000.0;

/// A scenario: `R` is the ruleset's rules block, `S` its combatant sheet, `M` its mount sheet,
/// `P` the properties its locations may have.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(
    deny_unknown_fields,
    bound(
        deserialize = "R: Deserialize<'de> + Default, S: Deserialize<'de>, M: Deserialize<'de> + Default, P: Deserialize<'de> + LocationProperty"
    )
)]
pub struct Scenario<R, S, M, P = NoLocationProperty> {
    /// Shown name.
    pub name: String,
    /// Which ruleset plays it, e.g. "fiend_wake".
    pub ruleset: String,
    /// Text for the GM.
    #[serde(default)]
    pub description: String,
    /// Default RNG seed (the command line may override it).
    #[serde(default)]
    pub seed: u64,
    /// The ruleset's own settings and catalogues.
    #[serde(default)]
    pub rules: R,
    /// A picture drawn under the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<MapSpec>,
    /// The sides of the fight.
    pub sides: Vec<SideSpec>,
    /// Strategic locations ("no location" exists without being listed).
    #[serde(default = "Vec::new")]
    pub locations: Vec<LocationSpec<P>>,
    /// Mounts.
    #[serde(default = "Vec::new")]
    pub mounts: Vec<MountSpec<M>>,
    /// Combatants.
    pub combatants: Vec<CombatantSpec<S>>,
    /// The players' seats and whom each decides for (anyone in no seat is the GM's or the
    /// AI's, as its `controller` says).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub seats: Vec<SeatSpec>,
}

/// A player's seat at the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SeatSpec {
    /// Stable id.
    pub id: SeatId,
    /// The player's name, shown.
    pub name: String,
    /// The combatants this player decides for (one, several, a whole side).
    #[serde(default)]
    pub combatants: Vec<CombatantId>,
}

/// A side.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SideSpec {
    /// Stable id.
    pub id: SideId,
    /// Shown name.
    pub name: String,
}

/// A strategic location.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(
    from = "LocationFile<P>",
    bound(deserialize = "P: Deserialize<'de> + LocationProperty", serialize = "P: Serialize")
)]
pub struct LocationSpec<P> {
    /// Stable id (not "field", which is "no location").
    pub id: LocationId,
    /// Shown name.
    pub name: String,
    /// Where it may be entered from; absent means only from no location ("field").
    #[serde(default)]
    pub entered_from: Option<Vec<LocationId>>,
    /// Properties with effects, of the ruleset's own kinds (what entering costs among them).
    #[serde(default = "Vec::new")]
    pub properties: Vec<P>,
    /// Centre on the board.
    #[serde(default)]
    pub position: (f32, f32),
    /// Size on the board.
    #[serde(default = "default_size")]
    pub size: (f32, f32),
    /// A picture on its card: a PNG under `assets/` ([`image_problem`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

/// A location as files are read: today's fields, and the number older files gave every
/// location (`entry_cost`, Fiend Wake's until it became its property `EntryCost`), which
/// the ruleset takes as one of its properties ([`LocationProperty::from_entry_cost`]) or
/// drops where it never meant anything.
#[derive(Deserialize)]
#[serde(rename = "LocationSpec", deny_unknown_fields, bound(deserialize = "P: Deserialize<'de>"))]
struct LocationFile<P> {
    id: LocationId,
    name: String,
    #[serde(default)]
    entered_from: Option<Vec<LocationId>>,
    #[serde(default)]
    entry_cost: Option<u32>,
    #[serde(default = "Vec::new")]
    properties: Vec<P>,
    #[serde(default)]
    position: (f32, f32),
    #[serde(default = "default_size")]
    size: (f32, f32),
    #[serde(default)]
    image: Option<String>,
}

impl<P: LocationProperty> From<LocationFile<P>> for LocationSpec<P> {
    fn from(file: LocationFile<P>) -> Self {
        let mut properties = file.properties;
        if let Some(old) = file.entry_cost.and_then(P::from_entry_cost) {
            properties.insert(0, old);
        }
        LocationSpec {
            id: file.id,
            name: file.name,
            entered_from: file.entered_from,
            properties,
            position: file.position,
            size: file.size,
            image: file.image,
        }
    }
}

/// A ruleset's kind of location property.
pub trait LocationProperty: Sized {
    /// The property an older file's `entry_cost: n` on a location stands for, if entering
    /// costs anything in this ruleset (none by default: the number is dropped).
    fn from_entry_cost(_cost: u32) -> Option<Self> {
        None
    }
}

/// A picture drawn under the board: a PNG under `assets/`, `scale` of the board's units a
/// pixel (the ruleset's unit on a board of free positions, board units on one of cards),
/// centred on `centre` in the same units.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapSpec {
    /// The PNG, under `assets/`.
    pub image: String,
    /// The board's units one pixel of it covers.
    pub scale: f32,
    /// Where its centre is.
    #[serde(default)]
    pub centre: (f32, f32),
}

/// Longest image path taken.
const MAX_IMAGE_PATH: usize = 200;

/// What is wrong with an image path, if anything: it must name a PNG under `assets/`,
/// relative, without `..`.
pub fn image_problem(path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split(['/', '\\']).collect();
    if path.is_empty() || path.len() > MAX_IMAGE_PATH {
        Some(format!("image \"{path}\": a path of 1 to {MAX_IMAGE_PATH} characters under assets/ is needed"))
    } else if path.starts_with(['/', '\\']) || path.contains(':') || parts.contains(&"..") {
        Some(format!("image \"{path}\": give a path inside assets/ (no leading /, no drive, no ..)"))
    } else if !path.to_ascii_lowercase().ends_with(".png") {
        Some(format!("image \"{path}\": only PNG pictures are read"))
    } else {
        None
    }
}

fn default_size() -> (f32, f32) {
    (200.0, 140.0)
}

/// The property type of a ruleset whose locations have none: no value parses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum NoLocationProperty {}

impl LocationProperty for NoLocationProperty {}

/// A mount.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound(deserialize = "M: Deserialize<'de> + Default"))]
pub struct MountSpec<M> {
    /// Stable id.
    pub id: MountId,
    /// Shown name.
    pub name: String,
    /// The location it stands in; absent means no location.
    #[serde(default)]
    pub location: Option<LocationId>,
    /// Where on the field it stands.
    #[serde(default)]
    pub position: Option<(f32, f32)>,
    /// The ruleset's data for it.
    #[serde(default)]
    pub sheet: M,
    /// Its picture: a PNG under `assets/` ([`image_problem`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

/// Whether a field holds its default (such fields are not written).
pub fn is_default<T: Default + PartialEq>(value: &T) -> bool {
    *value == T::default()
}

/// A combatant.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CombatantSpec<S> {
    /// Stable id.
    pub id: CombatantId,
    /// Shown name.
    pub name: String,
    /// Its side's id.
    pub side: SideId,
    /// The GM (`Gm`, older files `Human`) or the AI (`Ai`) when no seat has it; a player's
    /// seat is given in the scenario's `seats`.
    #[serde(default)]
    pub controller: Controller,
    /// How the AI decides for it when the AI has it: `tactical` (the default) or `simple`.
    #[serde(default, skip_serializing_if = "crate::scenario::is_default")]
    pub ai: crate::ai::AiLevel,
    /// The location it starts in; absent means no location.
    #[serde(default)]
    pub location: Option<LocationId>,
    /// The mount it starts on (it then stands where the mount stands).
    #[serde(default)]
    pub rides: Option<MountId>,
    /// Where on the field it stands.
    #[serde(default)]
    pub position: Option<(f32, f32)>,
    /// The ruleset's character sheet.
    pub sheet: S,
    /// Its picture: a PNG under `assets/` ([`image_problem`]); without one its token shows
    /// its initials.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
}

/// Just enough of a scenario to know which ruleset reads the rest.
#[derive(Debug, Deserialize)]
#[serde(rename = "Scenario")]
pub struct ScenarioHeader {
    /// The ruleset id.
    pub ruleset: String,
}

/// Why a scenario cannot be used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ScenarioError {
    /// The file could not be read.
    #[error("cannot read the file: {0}")]
    Io(String),
    /// The file is larger than the limit it is read with (the limit, in bytes).
    #[error("the file is over {0} bytes, more than a scenario or save may be")]
    TooLarge(u64),
    /// RON syntax or a wrong type, at a line and column.
    #[error("{line}:{col}: {message}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        col: usize,
        /// What is wrong.
        message: String,
    },
    /// The file parses but does not make sense; one message per problem.
    #[error("{}", .0.join("; "))]
    Invalid(Vec<String>),
    /// No ruleset of this name (the second field lists those there are).
    #[error("unknown ruleset '{0}' (this Fray plays {1})")]
    UnknownRuleset(String, String),
}

impl ScenarioError {
    /// One line per problem, each starting with the path (`PATH:LINE:COL: message` for
    /// syntax and type errors); a line break or other control character in the path, an id
    /// or a message is written escaped (`\n`), so that each problem stays one line.
    pub fn report(&self, path: &str) -> Vec<String> {
        let path = one_line(path);
        match self {
            ScenarioError::Syntax { line, col, message } => {
                vec![format!("{path}:{line}:{col}: {}", one_line(message))]
            }
            ScenarioError::Invalid(problems) => {
                problems.iter().map(|p| format!("{path}: {}", one_line(p))).collect()
            }
            other => vec![format!("{path}: {}", one_line(&other.to_string()))],
        }
    }
}

/// `text` with its control characters (line breaks, tabs…) escaped as Rust writes them.
pub fn one_line(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_owned();
    }
    text.chars()
        .map(|c| if c.is_control() { c.escape_default().to_string() } else { c.to_string() })
        .collect()
}

/// Reads a scenario file as text, refusing absurdly large files.
pub fn read_text(path: &Path) -> Result<String, ScenarioError> {
    read_limited(path, MAX_FILE_BYTES)
}

/// Reads a text file of at most `limit` bytes, refusing a larger one as soon as that many bytes
/// are read, before it is read whole, and anything but a regular file before it is opened (a
/// named pipe would wait for a writer forever, a device may never end). A UTF-8 byte-order
/// mark (Windows Notepad writes one) is dropped.
pub fn read_limited(path: &Path, limit: u64) -> Result<String, ScenarioError> {
    use std::io::Read;
    let io = |e: std::io::Error| ScenarioError::Io(e.to_string());
    if let Some(kind) = not_regular(&std::fs::metadata(path).map_err(io)?) {
        return Err(ScenarioError::Io(format!("it is {kind}, not a regular file")));
    }
    let file = std::fs::File::open(path).map_err(io)?;
    let mut bytes = Vec::new();
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes).map_err(io)?;
    if bytes.len() as u64 > limit {
        return Err(ScenarioError::TooLarge(limit));
    }
    let text =
        String::from_utf8(bytes).map_err(|_| ScenarioError::Io("the file is not UTF-8 text".to_owned()))?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_owned(),
        None => text,
    })
}

/// What a path names when it is not a regular file (followed through links): a folder, a
/// named pipe, a device…; `None` for a regular file.
pub fn not_regular(meta: &std::fs::Metadata) -> Option<&'static str> {
    let kind = meta.file_type();
    if kind.is_file() {
        return None;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return Some("a named pipe (FIFO)");
        }
        if kind.is_char_device() || kind.is_block_device() {
            return Some("a device");
        }
        if kind.is_socket() {
            return Some("a socket");
        }
    }
    Some(if kind.is_dir() { "a folder" } else { "something else" })
}

/// Parses RON text with Fray's options (implicit `Some`, bounded nesting).
pub fn parse_ron<T: DeserializeOwned>(text: &str) -> Result<T, ScenarioError> {
    ron::Options::default()
        .with_default_extension(Extensions::IMPLICIT_SOME)
        .with_recursion_limit(64)
        .from_str(text)
        .map_err(|e| ScenarioError::Syntax {
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        })
}

/// Writes a scenario (or anything else Fray reads with [`parse_ron`]) as RON text that
/// [`parse_ron`] reads back to the same value: named structs, one field a line.
pub fn to_ron<T: Serialize + ?Sized>(value: &T) -> Result<String, String> {
    let config = ron::ser::PrettyConfig::new().struct_names(true).indentor("    ".to_owned());
    ron::ser::to_string_pretty(value, config).map(|text| text + "\n").map_err(|e| e.to_string())
}

/// The ruleset a file names (`ruleset: "id"`), found without parsing the file: for a file
/// too broken to parse, so that its ruleset's reader explains what is wrong.
pub fn sniff_ruleset(text: &str) -> Option<String> {
    let at = text.find("ruleset")?;
    let rest = text[at + "ruleset".len()..].trim_start().strip_prefix(':')?.trim_start().strip_prefix('"')?;
    let id = &rest[..rest.find('"')?];
    (!id.is_empty() && id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')).then(|| id.to_owned())
}

/// Reads the `ruleset` field only.
pub fn read_header(text: &str) -> Result<ScenarioHeader, ScenarioError> {
    parse_ron(text)
}

impl<R, S, M, P> Scenario<R, S, M, P> {
    /// What the contract needs to know of it: name, seed, and the ids of its combatants,
    /// locations and sides.
    pub fn facts(&self) -> crate::ruleset::ScenarioFacts {
        crate::ruleset::ScenarioFacts {
            name: self.name.clone(),
            seed: self.seed,
            combatants: self.combatants.iter().map(|c| c.id.clone()).collect(),
            locations: self.locations.iter().map(|l| l.id.clone()).collect(),
            sides: self.sides.iter().map(|s| s.id.clone()).collect(),
            seats: self.seats.iter().map(|s| s.id.clone()).collect(),
        }
    }

    /// Who decides for a combatant when the fight starts: the seat that names it, else its
    /// own `controller`.
    pub fn controller_of(&self, c: &CombatantSpec<S>) -> Controller {
        let seat = self.seats.iter().find(|s| s.combatants.contains(&c.id));
        seat.map_or_else(|| c.controller.clone(), |s| Controller::Player(s.id.clone()))
    }

    /// Every stable id (sides, locations, mounts, combatants) with its display name (shared
    /// combatant names numbered, see [`numbered_names`]).
    pub fn names(&self) -> BTreeMap<String, String> {
        self.names_with(&self.combatant_names())
    }

    /// Each combatant's shown name, in the scenario's order ([`numbered_names`]).
    fn combatant_names(&self) -> Vec<String> {
        numbered_names(self.combatants.iter().map(|c| c.name.as_str()))
    }

    /// [`Scenario::names`] with the combatants' shown names already worked out.
    fn names_with(&self, shown: &[String]) -> BTreeMap<String, String> {
        let sides = self.sides.iter().map(|s| (s.id.to_string(), s.name.clone()));
        let locations = self.locations.iter().map(|l| (l.id.to_string(), l.name.clone()));
        let mounts = self.mounts.iter().map(|m| (m.id.to_string(), m.name.clone()));
        let combatants = self.combatants.iter().zip(shown).map(|(c, name)| (c.id.to_string(), name.clone()));
        let field = std::iter::once((LocationId::FIELD.to_owned(), "the open field".to_owned()));
        sides.chain(field).chain(locations).chain(mounts).chain(combatants).collect()
    }
}

/// A name's stem and its closing remark in brackets: ("Imp archer", " (tower)") for "Imp
/// archer (tower)"; ("Imp", "") for "Imp".
pub fn name_stem(name: &str) -> (&str, &str) {
    match name.rfind(" (") {
        Some(at) if name.ends_with(')') && at > 0 => name.split_at(at),
        _ => (name, ""),
    }
}

/// The names shown for combatants named in this order: names two or more share a stem of
/// ([`name_stem`]) are numbered together in that order ("Imp 1", "Imp 2"; "Warden 1",
/// "Warden 2 (relief)", the number before the remark), skipping a number another combatant's
/// name has already. Every stem shown is then one combatant's.
pub fn numbered_names<'a>(names: impl Iterator<Item = &'a str> + Clone) -> Vec<String> {
    let mut count: BTreeMap<&str, u32> = BTreeMap::new();
    for n in names.clone() {
        *count.entry(name_stem(n).0).or_default() += 1;
    }
    let mut taken: BTreeSet<String> =
        count.iter().filter(|(_, n)| **n < 2).map(|(stem, _)| (*stem).to_owned()).collect();
    let mut next: BTreeMap<&str, u32> = BTreeMap::new();
    names
        .map(|name| {
            let (stem, remark) = name_stem(name);
            if count[stem] < 2 {
                return name.to_owned();
            }
            let n = next.entry(stem).or_default();
            loop {
                *n += 1;
                let numbered = format!("{stem} {n}");
                if taken.insert(numbered.clone()) {
                    return numbered + remark;
                }
            }
        })
        .collect()
}

/// Whether a point lies within [`MAX_COORDINATE`] either way (never a NaN or an infinity).
pub fn on_board((x, y): (f32, f32)) -> bool {
    x.abs() <= MAX_COORDINATE && y.abs() <= MAX_COORDINATE
}

/// `text` after a few edits, as property tests draw them to show that no file panics a
/// loader: at a place (`at` modulo the text's length), remove (0), insert (1) or replace (2)
/// a character, or cut the text there (3).
pub fn mangle(text: &str, edits: &[(usize, u8, char)]) -> String {
    let mut text: Vec<char> = text.chars().collect();
    for &(at, op, c) in edits {
        if text.is_empty() {
            break;
        }
        let i = at % text.len();
        match op {
            0 => {
                text.remove(i);
            }
            1 => text.insert(i, c),
            2 => text[i] = c,
            _ => text.truncate(i),
        }
    }
    text.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scenario of no ruleset in particular, with `extra` fields.
    fn scenario(extra: &str) -> Scenario<(), (), ()> {
        let text = format!(
            r#"(name: "t", ruleset: "none", {extra}
                sides: [(id: "a", name: "A"), (id: "b", name: "B")],
                combatants: [(id: "x", name: "X", side: "a", image: "art/x.png", sheet: ())])"#
        );
        parse_ron(&text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn names_two_combatants_share_are_numbered_in_order() {
        let names = ["Imp", "Imp archer (tower)", "Lockjaw", "Imp", "Imp archer (tower)", "Imp 2", "Imp"];
        assert_eq!(
            numbered_names(names.into_iter()),
            ["Imp 1", "Imp archer 1 (tower)", "Lockjaw", "Imp 3", "Imp archer 2 (tower)", "Imp 2", "Imp 4"]
        );
        let names = ["Warden", "Warden (relief)", "Warden", "Sol (the guide)", "(Hooded)"];
        assert_eq!(
            numbered_names(names.into_iter()),
            ["Warden 1", "Warden 2 (relief)", "Warden 3", "Sol (the guide)", "(Hooded)"],
            "a remark is no name of its own: names sharing a stem are numbered together"
        );
    }

    #[test]
    fn image_paths_must_name_a_png_inside_assets() {
        assert_eq!(image_problem("art/emblems/helm.png"), None);
        assert_eq!(image_problem("maps/Street.PNG"), None);
        for bad in ["", "/etc/passwd.png", "../secret.png", "art/../../x.png", "C:/x.png", "art/x.jpg"] {
            assert!(image_problem(bad).is_some(), "{bad:?} taken");
        }
        assert!(image_problem(&"a/".repeat(150)).is_some_and(|w| w.contains("1 to 200")));
    }

    #[test]
    fn a_broken_picture_or_map_is_named_in_the_scenarios_problems() {
        assert!(scenario("").core_problems().is_empty(), "{:?}", scenario("").core_problems());
        let good = scenario(r#"map: (image: "art/maps/meadow.png", scale: 0.04),"#);
        assert_eq!(good.map.as_ref().map(|m| m.centre), Some((0.0, 0.0)), "centred by default");
        assert!(good.core_problems().is_empty(), "{:?}", good.core_problems());
        let bad = scenario(r#"map: (image: "../map.png", scale: 0, centre: (1e9, 0)),"#);
        let problems = bad.core_problems();
        assert_eq!(problems.len(), 3, "{problems:?}");
        assert!(problems.iter().all(|p| p.starts_with("map: ")), "{problems:?}");
        let mut picture = scenario("");
        picture.combatants[0].image = Some("x.gif".into());
        assert_eq!(
            picture.core_problems(),
            vec!["combatant 'x': image \"x.gif\": only PNG pictures are read"]
        );
    }

    /// Three combatants on two sides, with `seats` and the third's controller as given.
    fn seated(seats: &str, third: &str) -> Scenario<(), (), ()> {
        let text = format!(
            r#"(name: "t", ruleset: "none", seats: [{seats}],
                sides: [(id: "a", name: "A"), (id: "b", name: "B")],
                combatants: [(id: "x", name: "X", side: "a", sheet: ()), (id: "y", name: "Y", side: "a", sheet: ()),
                    (id: "z", name: "Z", side: "b", controller: {third}, sheet: ())])"#
        );
        parse_ron(&text).unwrap_or_else(|e| panic!("{e}"))
    }

    #[test]
    fn a_seat_plays_the_combatants_it_names_and_the_rest_keep_their_controller() {
        let s = seated(r#"(id: "anna", name: "Anna", combatants: ["x"]), (id: "bo", name: "Bo")"#, "Human");
        assert!(s.core_problems().is_empty(), "{:?}", s.core_problems());
        let by = |i: usize| s.controller_of(&s.combatants[i]);
        assert_eq!(by(0), Controller::Player("anna".into()));
        assert_eq!(by(1), Controller::Ai, "no seat and no controller: the AI");
        assert_eq!(by(2), Controller::Gm, "an older file's Human is the GM");
        assert_eq!(s.facts().seats, [SeatId::from("anna"), SeatId::from("bo")]);
        let written = to_ron(&s).unwrap_or_else(|e| panic!("{e}"));
        assert!(written.contains("controller: Gm") && !written.contains("Human"), "{written}");
    }

    #[test]
    fn seats_naming_what_is_not_there_or_twice_are_refused_with_the_seat_named() {
        let s = seated(
            r#"(id: "anna", name: "Anna", combatants: ["x", "ghost"]), (id: "anna", name: " ", combatants: ["x"])"#,
            r#"Player("anna")"#,
        );
        assert_eq!(
            s.core_problems(),
            [
                "duplicate seat id 'anna'",
                "seat 'anna': 'ghost' is not a combatant of this scenario",
                "seat 'anna': give the player a name",
                "seat 'anna': 'x' already sits with seat 'anna'",
                "combatant 'z': controller names seat 'anna'; list the combatant in that seat's `combatants` instead",
            ]
        );
    }
}
