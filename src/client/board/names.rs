//! The names a caption or a strip gives combatants: the short name, or a longer one where
//! two would read alike.

use std::borrow::Cow;

use bevy::prelude::*;
use fray_core::location::Location;
use fray_core::prelude::Combatant;

/// Words that may open a name before the one it goes by ("Sir Aldric" goes by Aldric).
const TITLES: [&str; 22] = [
    "Sir",
    "Lady",
    "Lord",
    "Dame",
    "Master",
    "Mistress",
    "Captain",
    "Brother",
    "Sister",
    "Father",
    "Mother",
    "Old",
    "Saint",
    "Doctor",
    "Castellan",
    "Sergeant",
    "Baron",
    "Baroness",
    "King",
    "Queen",
    "Prince",
    "Princess",
];

/// Small words inside a person's name ("Mael the carter", "Anna of Vell"): such a name goes
/// by its first word.
const JOINERS: [&str; 8] = ["the", "of", "von", "van", "de", "da", "del", "al"];

/// The longest whole name a caption gives a combatant whose short name another shares (a
/// longer one would widen a card's grid, and the board, for one caption).
const WHOLE_NAME_MAX: usize = 15;

/// The name a caption or a strip gives a combatant among `all` (every combatant's name at the
/// table): its short name, or where another with another whole name goes by the same short
/// name ("Bandit leader" beside "Bandit") its whole name when short enough, else its name
/// without a closing remark in brackets ("Imp archer 2" for "Imp archer 2 (tower)": the
/// core numbers names that share a stem, so that one is a single combatant's).
/// Too long for either, its last word where no other name goes by it ("Crossbowman" for
/// "Raider crossbowman" beside "Raider 1").
/// A name that says what someone is ("Wall archer", "Siege engineer", "Toll ogre") is given
/// whole where it is short enough: its first word alone ("Wall") says nothing.
pub(crate) fn shown_name<'a>(name: &'a str, all: &[&str]) -> Cow<'a, str> {
    let short = short_name(name);
    let goes_by = |word: &str| all.iter().any(|n| *n != name && short_name(n).eq_ignore_ascii_case(word));
    let stem = fray_core::scenario::name_stem(name).0;
    let last = stem.split_whitespace().last().unwrap_or(short);
    if describes(stem) && stem.chars().count() <= WHOLE_NAME_MAX {
        Cow::Borrowed(stem)
    } else if !goes_by(short) {
        Cow::Borrowed(short)
    } else if name.chars().count() <= WHOLE_NAME_MAX {
        Cow::Borrowed(name)
    } else if stem.chars().count() <= WHOLE_NAME_MAX {
        Cow::Borrowed(stem)
    } else if last != short && last.chars().count() <= WHOLE_NAME_MAX && !goes_by(last) {
        Cow::Owned(fray_core::board::capital(last))
    } else {
        Cow::Borrowed(short)
    }
}

/// Every name a caption stands beside at the table, for [`shown_name`]: the combatants' and
/// the cards' ("Keep archer" is not captioned "Keep" beside the Keep).
pub(crate) fn all_names(world: &World) -> Vec<String> {
    let people = world
        .try_query::<&Combatant>()
        .map_or_else(Vec::new, |mut q| q.iter(world).map(|c| c.name.clone()).collect::<Vec<_>>());
    let index = world.get_resource::<fray_core::prelude::TableIndex>();
    let places = index.map_or(&[][..], |i| i.location_order.as_slice());
    let cards = places.iter().filter_map(|&p| world.get::<Location>(p)).map(|l| l.name.clone());
    people.into_iter().chain(cards).collect()
}

/// Whether a name says what someone is rather than who: a first word and lower-case words
/// after it, none of them a joiner ("Wall archer", not "Mael the carter" or "Imp 2").
fn describes(name: &str) -> bool {
    let mut words = name.split_whitespace();
    let first = words.next().unwrap_or_default();
    let rest: Vec<&str> = words.collect();
    !rest.is_empty()
        && !TITLES.contains(&first)
        && rest.iter().all(|w| w.starts_with(|c: char| c.is_lowercase()) && !JOINERS.contains(w))
}

/// A combatant's short name: the first word of its name, past a title.
pub(crate) fn short_name(name: &str) -> &str {
    let mut words = name.split_whitespace();
    let first = words.next().unwrap_or_default();
    match words.next() {
        Some(next) if TITLES.contains(&first) => next,
        _ => first,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caption_names_the_first_word_past_a_title() {
        assert_eq!(short_name("Sir Aldric"), "Aldric");
        assert_eq!(short_name("Mael the carter"), "Mael");
        assert_eq!(short_name("Sir"), "Sir", "a title alone is the name");
        assert_eq!(short_name("Sirius Black"), "Sirius");
        assert_eq!(short_name(""), "");
    }

    #[test]
    fn a_short_name_another_shares_gives_way_to_a_short_whole_name() {
        let all = ["Sir Aldric", "Bandit leader", "Bandit", "Bandit", "Raider", "Raider crossbowman"];
        assert_eq!(shown_name("Sir Aldric", &all), "Aldric");
        assert_eq!(shown_name("Bandit leader", &all), "Bandit leader");
        assert_eq!(shown_name("Bandit", &all), "Bandit", "the same whole name tells nothing more");
        assert_eq!(shown_name("Raider crossbowman", &all), "Crossbowman", "too long: its last word");
        // Names the core numbered (a stem two or more share).
        let all = [
            "Imp 1",
            "Imp 2",
            "Imp archer 1 (tower)",
            "Imp archer 2 (tower)",
            "Warden 3 (relief)",
            "Warden 1",
        ];
        assert_eq!(shown_name("Imp 2", &all), "Imp 2");
        assert_eq!(shown_name("Imp archer 2 (tower)", &all), "Imp archer 2", "its remark left off");
        assert_eq!(shown_name("Warden 3 (relief)", &all), "Warden 3");
    }

    #[test]
    fn a_caption_is_never_a_cards_name() {
        // The castle: an archer in the Keep, the raiders numbered by the core.
        let all =
            ["Keep archer", "Gate warden", "Raider 1", "Raider 2", "Raider crossbowman", "Keep", "Gatehouse"];
        assert_eq!(shown_name("Keep archer", &all), "Keep archer");
        assert_eq!(shown_name("Raider 1", &all), "Raider 1");
        assert_eq!(shown_name("Raider crossbowman", &all), "Crossbowman");
    }

    #[test]
    fn a_name_that_says_what_someone_is_is_given_whole() {
        let all =
            ["Gate warden", "Wall archer", "Siege engineer", "Castellan Wendel", "Toll ogre", "Cutthroat"];
        assert_eq!(shown_name("Gate warden", &all), "Gate warden", "not \"Gate\"");
        assert_eq!(shown_name("Wall archer", &all), "Wall archer");
        assert_eq!(shown_name("Siege engineer", &all), "Siege engineer");
        assert_eq!(shown_name("Toll ogre", &all), "Toll ogre");
        assert_eq!(shown_name("Castellan Wendel", &all), "Wendel", "a title, then the name");
        assert_eq!(shown_name("Cutthroat", &all), "Cutthroat");
        // People's names go by their first word; a long description by its last.
        let all = ["Mael the carter", "Lockjaw Gorgenbrew", "Imp 2", "Imp 1", "Bandit crossbowman"];
        assert_eq!(shown_name("Mael the carter", &all), "Mael");
        assert_eq!(shown_name("Lockjaw Gorgenbrew", &all), "Lockjaw");
        assert_eq!(shown_name("Imp 2", &all), "Imp 2");
        assert_eq!(shown_name("Bandit crossbowman", &all), "Bandit");
    }
}
