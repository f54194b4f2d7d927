//! An entry's chips, right-aligned in its row in order of importance: its owner (with a
//! reentrant holder's count), a node found again by its GUID, READ/WRITE, an orphan, a row
//! lock and its waiters, its expiry, its stamp. Once one does not fit, none after it does; on a
//! phone the owner (its stripe's colour) yields to the lesson's chips.

use super::service::stamp_text;
use super::Builder;
use crate::services::Lifetime;
use crate::view::entries::EntryRow;
use crate::view::palette::{self, INK, MUTED, OK, VIOLATION};

impl Builder<'_> {
    /// Chips in type `size` (boxes at most `size.1` tall), right-aligned from `right` at height
    /// `cy`, most important first; returns where they end.
    pub(super) fn chips(
        &mut self,
        r: &EntryRow,
        at: (f32, f32),
        most: f32,
        size: (u16, f32),
    ) -> f32 {
        let (right, cy) = at;
        let k = format!("e:{}", r.id);
        // A phone's narrow rows give the chips (the lesson's words) all but the sequence number.
        let share = if self.g.w < 500.0 { 1.0 } else { 0.55 };
        let room = ((right - self.g.service.x) * share).min(most);
        // Gathered in order of importance, then placed from the right.
        let mut list: Vec<Chip> = Vec::new();
        let mut add = |_: &mut Self,
                       key: &'static str,
                       word: String,
                       fill: &'static str,
                       ink: &'static str,
                       evidence: Option<&'static str>| {
            list.push((key, word, fill, ink, evidence))
        };
        if let Some(o) = r.owner {
            // A reentrant holder's count on its own node (×1, ×2: what its release undoes), on
            // every server's copy of it.
            let count = self.f.clients.get(o).filter(|c| {
                c.counts
                    && c.believes
                    && c.hold_count > 0
                    && c.node.as_deref() == Some(crate::services::server_of_id(&r.id).1)
            });
            let word = match count {
                Some(c) => format!("C{} ×{}", o + 1, c.hold_count),
                None => format!("C{}", o + 1),
            };
            let evidence = count.filter(|c| c.hold_count > 1).map(|_| "reentrant");
            add(
                self,
                "owner",
                word,
                palette::client_colour(o),
                palette::client_text(o),
                evidence,
            );
        }
        if self
            .f
            .clients
            .iter()
            .any(|c| c.found && c.node.as_deref() == Some(&r.id))
        {
            add(
                self,
                "found",
                match self.g.w < 500.0 {
                    true => "GUID ✓".to_string(),
                    false => self.say("found by its GUID ✓", "凭 GUID 找回 ✓"),
                },
                "#e3f4e8",
                OK,
                Some("adopted"),
            );
        }
        if let Some(m) = r.mode() {
            let (fill, ink) = if m == "WRITE" {
                (INK, "#ffffff")
            } else {
                ("#ffffff", INK)
            };
            add(self, "mode", m.to_string(), fill, ink, Some("read-write"));
        }
        if r.orphan {
            add(
                self,
                "orphan",
                self.say("orphan", "孤儿节点"),
                VIOLATION,
                "#ffffff",
                Some("orphan"),
            );
        }
        if let Some((holder, waiting)) = r.entry.row_lock() {
            let mut w = self.say(
                format!("row lock C{}", holder + 1),
                format!("行锁 C{}", holder + 1),
            );
            if !waiting.is_empty() {
                let names: Vec<String> = waiting.iter().map(|c| format!("C{}", c + 1)).collect();
                w = self.say(
                    format!("{w} · waiting {}", names.join(" ")),
                    format!("{w} · 等待 {}", names.join(" ")),
                );
            }
            add(
                self,
                "rowlock",
                w,
                "#fff4d6",
                INK,
                Some(if waiting.is_empty() {
                    "row-lock"
                } else {
                    "row-lock row-waiters"
                }),
            );
        }
        match r.lifetime() {
            Lifetime::Expiring(Some(ms)) => {
                let w = self.ttl(ms);
                add(self, "ttl", w, "#e8f0fe", INK, Some("ttl"))
            }
            Lifetime::Persistent if r.owner.is_some() => {
                if let Some([en, zh]) = r.entry.no_expiry() {
                    let mut w = self.say(en, zh);
                    // A phone keeps the words, not the reply code ("no TTL (-1)" → "no TTL").
                    if self.g.w < 500.0 {
                        w = w.split(" (").next().unwrap_or(&w).to_string();
                    }
                    add(self, "ttl", w, VIOLATION, "#ffffff", Some("ttl-none"))
                }
            }
            Lifetime::Container => add(
                self,
                "life",
                self.say("container", "容器"),
                "#ffffff",
                MUTED,
                None,
            ),
            _ => {}
        }
        if let Some((k2, v)) = r.entry.stamp() {
            add(
                self,
                "stamp",
                format!("{k2} {}", stamp_text(v)),
                "#ffffff",
                MUTED,
                None,
            );
        }
        // On a phone the owner (its stripe's colour says it) yields to the lesson's chips.
        if self.g.w < 500.0
            && list
                .first()
                .is_some_and(|c| c.0 == "owner" && c.4.is_none())
        {
            list.rotate_left(1);
        }
        let mut x = right;
        for (key, word, fill, ink, evidence) in list {
            // A chip short of room keeps its first segments ("row lock C1 · waiting C2" →
            // "row lock C1"); once one does not fit at all, none after it does (a short chip
            // must not take the place of the one that carries the lesson).
            let Some(word) = super::fit_forms(&[word], size.0, room - (right - x) - 14.0) else {
                break;
            };
            x = self.chip(
                &format!("{k}:{key}"),
                x,
                cy,
                size,
                &word,
                fill,
                ink,
                evidence,
            ) - 4.0;
        }
        x
    }
}

/// An entry's chip: key, word, fill, ink and evidence.
type Chip = (
    &'static str,
    String,
    &'static str,
    &'static str,
    Option<&'static str>,
);
