//! The seats' join codes: random and unguessable (about 100 bits from the system's random
//! source), kept in the data folder so that a seat's link and the overlay's stay the same when
//! the host starts again there.

use std::collections::BTreeMap;
use std::path::Path;

use fray_core::seat::Seat;

/// The codes' file in the data folder.
const FILE: &str = "host-codes.json";
/// Letters and digits no one misreads (no 0/o, 1/l).
const ALPHABET: &[u8; 32] = b"abcdefghijkmnpqrstuvwxyz23456789";
/// A code's length: 5 bits a letter.
const LENGTH: usize = 20;

/// A new code.
pub fn new_code() -> Result<String, String> {
    let mut bytes = [0u8; LENGTH];
    getrandom::fill(&mut bytes).map_err(|e| format!("no random source for the join codes: {e}"))?;
    Ok(bytes.iter().map(|b| ALPHABET[usize::from(b % 32)] as char).collect())
}

/// The key a seat's code is kept under.
fn key(seat: &Seat) -> String {
    match seat {
        Seat::Player(id) => format!("player:{id}"),
        Seat::Table => "table".to_owned(),
        Seat::Gm => "gm".to_owned(),
    }
}

/// A code per seat, in order: those kept in `dir` (when given and readable), new ones for
/// the rest, all kept there again.
pub fn for_seats<'a>(
    dir: Option<&Path>,
    seats: impl Iterator<Item = &'a Seat>,
) -> Result<Vec<String>, String> {
    let path = dir.map(|d| d.join(FILE));
    let mut kept: BTreeMap<String, String> = path
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok())
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    // A kept code that is not one this host would make is made anew.
    kept.retain(|_, code| code.len() == LENGTH && code.bytes().all(|b| ALPHABET.contains(&b)));
    let before = kept.clone();
    let mut codes = Vec::new();
    for seat in seats {
        let code = match kept.get(&key(seat)) {
            Some(code) => code.clone(),
            None => new_code()?,
        };
        kept.insert(key(seat), code.clone());
        codes.push(code);
    }
    if let Some(path) = path.filter(|_| kept != before) {
        let text = serde_json::to_string_pretty(&kept).map_err(|e| e.to_string())?;
        crate::session::write_atomically(&path, text.as_bytes())
            .map_err(|e| format!("{}: cannot keep the join codes: {e}", path.display()))?;
    }
    Ok(codes)
}

/// Gives `seat` a new code in `dir` (its old link stops working): the GM ended its access.
pub fn renew(dir: Option<&Path>, seat: &Seat) -> Result<String, String> {
    let code = new_code()?;
    if let Some(path) = dir.map(|d| d.join(FILE)) {
        let mut kept: BTreeMap<String, String> = std::fs::read_to_string(&path)
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        kept.insert(key(seat), code.clone());
        let text = serde_json::to_string_pretty(&kept).map_err(|e| e.to_string())?;
        crate::session::write_atomically(&path, text.as_bytes())
            .map_err(|e| format!("{}: cannot keep the join codes: {e}", path.display()))?;
    }
    Ok(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_random_kept_in_the_data_folder_and_made_anew_when_broken() {
        let dir = std::env::temp_dir().join(format!("fray-codes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a folder");
        let seats = [Seat::Player("anna".into()), Seat::Table];
        let first = for_seats(Some(&dir), seats.iter()).expect("codes");
        assert_eq!(first.len(), 2);
        assert_ne!(first[0], first[1], "each seat its own code");
        assert!(first.iter().all(|c| c.len() == LENGTH));
        assert_eq!(for_seats(Some(&dir), seats.iter()).expect("codes"), first, "kept across restarts");
        assert_ne!(for_seats(None, seats.iter()).expect("codes"), first, "new without a folder");
        std::fs::write(dir.join(FILE), "{\"table\": \"0\"}").expect("written");
        let made = for_seats(Some(&dir), seats.iter()).expect("codes");
        assert!(made.iter().all(|c| c.len() == LENGTH), "a broken code is made anew: {made:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
