//! The wound chart: temporary wounds (up to Resilience per source), normal wounds filling
//! column by column with stun marks and their conversions, mortal wounds and death. Pure
//! bookkeeping: the rules that roll and log are in `damage`. See RULES.md, "Wounds".

use bevy_ecs::prelude::*;
use serde::{Deserialize, Serialize};

use crate::data::{ColumnSpec, WoundChartSpec};

/// One box of the normal wounds section.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Mark {
    /// Empty.
    Empty,
    /// Normal damage (an X).
    Normal,
    /// Stun damage (a /).
    Stun,
}

/// Normal or stun damage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum DamageKind {
    /// Normal damage.
    Normal,
    /// Stun damage.
    Stun,
}

impl DamageKind {
    /// The log's name for it.
    pub fn name(self) -> &'static str {
        match self {
            DamageKind::Normal => "normal",
            DamageKind::Stun => "stun",
        }
    }
}

/// A combatant's wound chart.
#[derive(Component, Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct WoundChart {
    /// Temporary wounds taken.
    pub glancing: u32,
    /// Temporary wound boxes.
    pub glancing_boxes: u32,
    /// Normal wound boxes in filling order (column by column, top to bottom).
    pub marks: Vec<Mark>,
    /// The columns, left to right.
    pub columns: Vec<ColumnSpec>,
    /// Mortal wounds taken.
    pub mortal: u32,
    /// Mortal wound boxes.
    pub mortal_boxes: u32,
}

/// Where one source's damage went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Applied {
    /// Into temporary wounds.
    pub glancing: u32,
    /// New normal marks.
    pub normal: u32,
    /// New stun marks.
    pub stun: u32,
    /// Stun marks turned into normal marks.
    pub converted: u32,
    /// Into mortal wounds.
    pub mortal: u32,
    /// The character must roll to stay conscious.
    pub consciousness_roll: bool,
    /// The last mortal box was filled.
    pub died: bool,
}

impl WoundChart {
    /// An empty chart of this shape.
    pub fn new(spec: &WoundChartSpec) -> WoundChart {
        let boxes = spec.columns.iter().map(|c| c.boxes as usize).sum();
        WoundChart {
            glancing: 0,
            glancing_boxes: spec.glancing,
            marks: vec![Mark::Empty; boxes],
            columns: spec.columns.clone(),
            mortal: 0,
            mortal_boxes: spec.mortal,
        }
    }

    /// Filled normal boxes (any mark).
    pub fn filled(&self) -> usize {
        self.marks.iter().filter(|m| **m != Mark::Empty).count()
    }

    /// Stun marks.
    pub fn stun_marks(&self) -> usize {
        self.marks.iter().filter(|m| **m == Mark::Stun).count()
    }

    /// Whether the mortal section is full.
    pub fn dead(&self) -> bool {
        self.mortal_boxes > 0 && self.mortal >= self.mortal_boxes
    }

    /// The rightmost column holding a mark, if any.
    fn last_marked_column(&self) -> Option<&ColumnSpec> {
        let mut start = 0;
        let mut last = None;
        for column in &self.columns {
            let end = start + column.boxes as usize;
            if self.marks[start..end.min(self.marks.len())].iter().any(|m| *m != Mark::Empty) {
                last = Some(column);
            }
            start = end;
        }
        last
    }

    /// Wound penalty: the rightmost marked column's, plus one per mortal wound.
    pub fn wound_penalty(&self) -> u32 {
        self.last_marked_column().map_or(0, |c| c.wound) + self.mortal
    }

    /// Movement penalty of the rightmost marked column.
    pub fn movement_penalty(&self) -> u32 {
        self.last_marked_column().map_or(0, |c| c.movement)
    }

    /// Applies one source's damage. `resilience` caps what goes to temporary wounds.
    pub fn apply(&mut self, amount: u32, kind: DamageKind, resilience: u32) -> Applied {
        let mut out = Applied::default();
        let glancing =
            amount.min(resilience).min(self.glancing_boxes - self.glancing.min(self.glancing_boxes));
        self.glancing += glancing;
        out.glancing = glancing;
        let rest = amount - glancing;
        match kind {
            DamageKind::Normal => self.apply_normal(rest, &mut out),
            DamageKind::Stun => {
                for _ in 0..rest {
                    self.stun_point(&mut out);
                }
                // Every stun hit once half the chart is filled, even one the temporary
                // wounds took whole (RULES.md, "Stun").
                out.consciousness_roll = amount > 0 && self.filled() * 2 >= self.marks.len();
            }
        }
        out.died = self.dead();
        out
    }

    /// Normal damage past the temporary wounds: stun marks are first converted to normal
    /// ones, two per point, from the start of the chart; the rest fills empty boxes; a half
    /// point left over becomes one stun point.
    fn apply_normal(&mut self, points: u32, out: &mut Applied) {
        let mut halves = points * 2;
        for mark in self.marks.iter_mut() {
            if halves == 0 {
                break;
            }
            if *mark == Mark::Stun {
                *mark = Mark::Normal;
                out.converted += 1;
                halves -= 1;
            }
        }
        for _ in 0..halves / 2 {
            self.normal_point(out);
        }
        if halves % 2 == 1 {
            self.stun_point(out);
        }
    }

    fn normal_point(&mut self, out: &mut Applied) {
        if let Some(mark) = self.marks.iter_mut().find(|m| **m == Mark::Empty) {
            *mark = Mark::Normal;
            out.normal += 1;
        } else {
            self.mortal_point(out);
        }
    }

    fn stun_point(&mut self, out: &mut Applied) {
        if let Some(mark) = self.marks.iter_mut().find(|m| **m == Mark::Empty) {
            *mark = Mark::Stun;
            out.stun += 1;
        } else if let Some(mark) = self.marks.iter_mut().find(|m| **m == Mark::Stun) {
            *mark = Mark::Normal;
            out.converted += 1;
        } else {
            self.mortal_point(out);
        }
    }

    fn mortal_point(&mut self, out: &mut Applied) {
        if self.mortal < self.mortal_boxes {
            self.mortal += 1;
            out.mortal += 1;
        }
    }
}
