//! Stable ids: what scenarios, saves, logs and intents use to name table objects.
//! They never change for the life of a table, unlike `Entity`.

use core::fmt;
use serde::{Deserialize, Serialize};

macro_rules! stable_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub String);

        impl $name {
            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }

        impl From<&str> for $name {
            fn from(s: &str) -> Self {
                Self(s.to_owned())
            }
        }
    };
}

stable_id!(
    /// Names a combatant.
    CombatantId
);
stable_id!(
    /// Names a strategic location. [`LocationId::FIELD`] is "no location".
    LocationId
);
stable_id!(
    /// Names a mount.
    MountId
);
stable_id!(
    /// Names a side (a faction: everyone on a side is an ally).
    SideId
);

impl LocationId {
    /// The id of "no location", the open field around every strategic location.
    pub const FIELD: &'static str = "field";

    /// "No location".
    pub fn field() -> Self {
        Self(Self::FIELD.to_owned())
    }
}
