//! Stable ids: what scenarios, saves, logs and intents use to name table objects.
//! They never change for the life of a table, unlike `Entity`.

use core::fmt;
use std::sync::Arc;

use serde::{Deserialize, Serialize};

macro_rules! stable_id {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        ///
        /// Shared text: cloning one (every log line and intent names someone) copies no
        /// characters.
        #[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(transparent)]
        pub struct $name(pub Arc<str>);

        impl $name {
            /// The id as text.
            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl From<String> for $name {
            fn from(s: String) -> Self {
                Self(s.into())
            }
        }

        impl PartialEq<str> for $name {
            fn eq(&self, other: &str) -> bool {
                &*self.0 == other
            }
        }

        impl PartialEq<&str> for $name {
            fn eq(&self, other: &&str) -> bool {
                &*self.0 == *other
            }
        }

        impl core::borrow::Borrow<str> for $name {
            fn borrow(&self) -> &str {
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
                Self(s.into())
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
stable_id!(
    /// Names a seat: a player at the table and the combatants they decide for.
    SeatId
);

impl LocationId {
    /// The id of "no location", the open field around every strategic location.
    pub const FIELD: &'static str = "field";

    /// "No location".
    pub fn field() -> Self {
        Self(Self::FIELD.into())
    }
}
