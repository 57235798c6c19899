//! Every decision a person or the AI takes in the Initiative ladder. Saves store these by
//! their serde form: never rename a variant that has shipped.

use fray_core::ids::CombatantId;
use serde::{Deserialize, Serialize};

use crate::data::Reaction;

/// How a combatant moves (the movement actions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MoveKind {
    /// 1 AP, up to Movement yards (crawling while prone: [AB] yards).
    Walk,
    /// 3 AP, up to Movement x 3; +3 Damage Threshold until the next turn.
    Run,
    /// 2 AP, up to Movement x 2; from 3 yards, the next melee hit adds a Fury Die.
    Charge,
    /// 2 AP, 1 yard, no opportunity attack.
    Maneuver,
    /// 1 AP, 1 yard, no opportunity attack.
    StepAside,
    /// 1 AP, 1 yard into a cover.
    TakeCover,
    /// A walk sneaking (the sneaking sub-type): 2 AP, [AB] - 1 yards, a Stealth test at the
    /// start; passed, the sneak is unseen and slips away from foes without an opportunity
    /// attack.
    Sneak,
}

impl MoveKind {
    /// Every kind, cheapest first.
    pub const ALL: [MoveKind; 7] = [
        MoveKind::Walk,
        MoveKind::StepAside,
        MoveKind::TakeCover,
        MoveKind::Sneak,
        MoveKind::Charge,
        MoveKind::Maneuver,
        MoveKind::Run,
    ];

    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            MoveKind::Walk => "walk",
            MoveKind::Run => "run",
            MoveKind::Charge => "charge",
            MoveKind::Maneuver => "maneuver",
            MoveKind::StepAside => "step aside",
            MoveKind::TakeCover => "take cover",
            MoveKind::Sneak => "sneak",
        }
    }
}

/// Where a called shot aims.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Aim {
    /// -30.
    Head,
    /// -10.
    Arms,
    /// No modifier.
    Body,
    /// -20.
    Legs,
}

impl Aim {
    /// Its modifier.
    pub fn modifier(self) -> i32 {
        match self {
            Aim::Head => -30,
            Aim::Arms => -10,
            Aim::Body => 0,
            Aim::Legs => -20,
        }
    }

    /// The location a word names ("head", "arms", "body", "legs").
    pub fn of_word(word: &str) -> Option<Aim> {
        [Aim::Head, Aim::Arms, Aim::Body, Aim::Legs].into_iter().find(|a| a.word() == word)
    }

    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            Aim::Head => "head",
            Aim::Arms => "arms",
            Aim::Body => "body",
            Aim::Legs => "legs",
        }
    }
}

/// The perilous stunts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum StuntKind {
    /// Athletics; Resist Athletics; Choked.
    Chokehold,
    /// Guile; Resist Awareness; Blinded.
    DirtyTricks,
    /// Coordination; Resist Coordination; Disarmed.
    Disarm,
    /// Athletics on a Defenseless or Helpless foe; knocked out.
    Knockout,
    /// Athletics; Resist Coordination; 2 yards back, or 1 yard to a side (a takedown too for
    /// 1 AP more).
    Push {
        /// Adds a takedown.
        takedown: bool,
        /// Which way the foe goes (straight back when left out).
        #[serde(default, skip_serializing_if = "PushWay::is_back")]
        way: PushWay,
    },
    /// The weapon's skill, two-handed; Resist Toughness; the shield is Ruined!.
    SplinterShield,
    /// Athletics; Resist Toughness; Stunned.
    StunningBlow,
    /// Coordination; Resist Coordination; Prone.
    Takedown,
}

impl StuntKind {
    /// Its name.
    pub fn word(self) -> &'static str {
        match self {
            StuntKind::Chokehold => "Chokehold",
            StuntKind::DirtyTricks => "Dirty tricks",
            StuntKind::Disarm => "Disarm",
            StuntKind::Knockout => "Knockout!",
            StuntKind::Push { takedown: false, way: PushWay::Back } => "Push",
            StuntKind::Push { takedown: true, way: PushWay::Back } => "Push and takedown",
            StuntKind::Push { takedown: false, way: PushWay::Left } => "Push a yard left",
            StuntKind::Push { takedown: true, way: PushWay::Left } => "Push a yard left and takedown",
            StuntKind::Push { takedown: false, way: PushWay::Right } => "Push a yard right",
            StuntKind::Push { takedown: true, way: PushWay::Right } => "Push a yard right and takedown",
            StuntKind::SplinterShield => "Splinter shield",
            StuntKind::StunningBlow => "Stunning blow",
            StuntKind::Takedown => "Takedown",
        }
    }
}

/// Which way a push shoves the foe: straight away from the pusher, or a yard to its left or
/// right as the pusher faces it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PushWay {
    /// Straight back (`push_yards`).
    #[default]
    Back,
    /// To the pusher's left (`push_side_yards`).
    Left,
    /// To the pusher's right (`push_side_yards`).
    Right,
}

impl PushWay {
    /// Straight back (the way a log leaves unsaid).
    pub fn is_back(&self) -> bool {
        *self == PushWay::Back
    }
}

/// An Initiative ladder decision.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ApLadderIntent {
    /// Move to a point (yards) as a movement action.
    Move {
        /// Where to.
        to: (f32, f32),
        /// How.
        how: MoveKind,
    },
    /// Get up from prone (2 AP, 1 with Coordination trained).
    GetUp,
    /// Get into the saddle or onto a vehicle within reach (as getting up: 2 AP, 1 with
    /// Coordination trained).
    Mount {
        /// The mount or vehicle.
        mount: fray_core::ids::MountId,
    },
    /// Get down from one's mount beside it (as getting up).
    Dismount,
    /// A melee, ranged or thrown attack, or a spell, with the weapon in hand (none: fists).
    Attack {
        /// The target.
        target: CombatantId,
        /// A called shot (2 AP): where.
        called: Option<Aim>,
        /// All-out: +10 for each Chaos Die rolled (up to 3); a 6 makes it a fumble.
        all_out: u32,
        /// Punishing: 1 AP more for a Fury Die.
        punishing: bool,
        /// The weapon's size difficulty (a cramped space, an ally in the engagement) ignored for
        /// a Chaos Die: a 6 makes the attack a fumble.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        press: bool,
    },
    /// Strike the mount a foe rides, with the weapon in hand (as an attack; a mount does not
    /// react).
    StrikeMount {
        /// The rider.
        rider: CombatantId,
    },
    /// A mounted combatant's trample (a Drive or Ride test; 1d10 + the mount's [BB]).
    Trample {
        /// The target.
        target: CombatantId,
    },
    /// A perilous stunt on an engaged foe.
    Stunt {
        /// The target.
        target: CombatantId,
        /// Which.
        kind: StuntKind,
    },
    /// Keep a chokehold up (3 AP): the victim takes 1d10 + [BB] Peril.
    KeepChokehold,
    /// Let a chokehold go.
    LetGo,
    /// Take aim: 1 AP for +10, 2 AP for +20 on the next attack or stunt this turn.
    TakeAim {
        /// AP spent.
        ap: u32,
    },
    /// Inspiring words (1 AP, once a fight).
    InspiringWords,
    /// Litany of hatred (1 AP, once a fight).
    LitanyOfHatred,
    /// Channel power (1 AP, a tome in hand): +10 to the next spell this turn.
    ChannelPower,
    /// Load the weapon in hand with the AP left (as many as it needs).
    Load,
    /// Subdue (1 AP): the next attack this turn does not kill.
    Subdue,
    /// Take another weapon in hand (a sheet index; none: fists), or pick one up within reach;
    /// free once a turn, then 1 AP.
    Swap {
        /// Which.
        weapon: Option<usize>,
    },
    /// Wait: keep the AP and step in later this turn (keeping the place where one does).
    Wait,
    /// A waiting one steps in before the next rung (a Scrutinize test before a foe's turn).
    Interrupt,
    /// A waiting one lets the next rung go and keeps waiting.
    KeepWaiting,
    /// End the turn.
    EndTurn,
    /// A reaction against the attack waiting on the defender.
    React {
        /// Which.
        reaction: Reaction,
    },
    /// No reaction: take the hit.
    TakeIt,
    /// A choked victim's Resist to escape (0 AP, once a turn).
    Escape,
    /// A foe left by a step aside follows it at once (free, no opportunity attack).
    Follow,
    /// A foe left by a step aside stays where it is.
    StayPut,
    /// Fix a Free-standing shield on the ground where one stands (1 AP).
    FixShield,
    /// Beat out the flames (2 AP, a Coordination test).
    PutOutFire,
    /// Bind a bleeding wound, one's own or an engaged ally's (2 AP, a Heal test).
    BindWound {
        /// Whose.
        target: CombatantId,
    },
}
