//! Round scenery in a ruleset's rules block (covers, lights…), as the editor places, adds
//! and removes it whatever its spec type.

/// A round piece of scenery as the editor shows it: where, how big, in the ruleset's unit.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundScenery {
    /// Its kind ("cover", "light").
    pub kind: &'static str,
    /// Its place in its kind's list.
    pub index: usize,
    /// Its name.
    pub name: String,
    /// Its centre.
    pub at: (f32, f32),
    /// Its radius.
    pub radius: f32,
}

/// A spec of round scenery in a rules block: a centre and a radius, and a name.
pub trait Round: Clone {
    /// Its centre and radius, to set.
    fn disc(&mut self) -> (&mut (f32, f32), &mut f32);
    /// Its name.
    fn name(&self) -> String;
    /// Its id and name, which another must not take (none for a light, which has neither).
    fn taken(&self) -> Vec<String>;
    /// A new one at `at`, made after `like` when there is one (its look and numbers), with
    /// an id and a name not in `taken` (the ids and names there are).
    fn made(like: Option<&Self>, at: (f32, f32), taken: &[String]) -> Self;
}

/// A light written as its centre and radius alone (FateWalker's conditions).
impl Round for ((f32, f32), f32) {
    fn disc(&mut self) -> (&mut (f32, f32), &mut f32) {
        (&mut self.0, &mut self.1)
    }

    fn name(&self) -> String {
        "Light".to_owned()
    }

    fn taken(&self) -> Vec<String> {
        Vec::new()
    }

    fn made(like: Option<&Self>, at: (f32, f32), _taken: &[String]) -> Self {
        (at, like.map_or(8.0, |l| l.1))
    }
}

/// One list of round scenery, whatever its spec type.
pub trait SceneryList {
    /// How many.
    fn len(&self) -> usize;
    /// Whether empty.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Piece `index` placed at `at`, `radius` wide.
    fn place(&mut self, index: usize, at: (f32, f32), radius: f32) -> bool;
    /// A new piece at `at` (after the last one, when there is one).
    fn add(&mut self, at: (f32, f32));
    /// Piece `index` taken away.
    fn remove(&mut self, index: usize) -> bool;
}

impl<T: Round> SceneryList for Vec<T> {
    fn len(&self) -> usize {
        <[T]>::len(self)
    }

    fn place(&mut self, index: usize, at: (f32, f32), radius: f32) -> bool {
        let Some(piece) = self.get_mut(index) else { return false };
        let (centre, size) = piece.disc();
        (*centre, *size) = (at, radius);
        true
    }

    fn add(&mut self, at: (f32, f32)) {
        let taken: Vec<String> = self.iter().flat_map(Round::taken).collect();
        let made = T::made(self.last(), at, &taken);
        self.push(made);
    }

    fn remove(&mut self, index: usize) -> bool {
        (index < <[T]>::len(self)).then(|| Vec::remove(self, index)).is_some()
    }
}

/// The round scenery of `list`, as `kind`.
pub fn round_scenery_of<T: Round>(kind: &'static str, list: &[T]) -> Vec<RoundScenery> {
    list.iter()
        .enumerate()
        .map(|(index, piece)| {
            let mut piece = piece.clone();
            let name = piece.name();
            let (at, radius) = piece.disc();
            RoundScenery { kind, index, name, at: *at, radius: *radius }
        })
        .collect()
}

/// `base` with the first number from 1 that makes it free of `taken` ("cover_3").
pub fn free_name(base: &str, sep: &str, taken: &[String]) -> String {
    (1..).map(|n| format!("{base}{sep}{n}")).find(|name| !taken.contains(name)).unwrap_or_default()
}
