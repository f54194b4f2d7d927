//! The protected resource below the service: its value (or last ID), whether it fences, the
//! highest token it has seen, and a ledger of writes — accepted ones ticked, a fenced write
//! shown rejected with the two tokens, the write that lost an update in red and the update it
//! overwrote struck through. The moments a lesson is about stay pinned in the ledger while
//! newer writes scroll past.

use super::service::stamp_text;
use super::Builder;
use crate::sim::resource::WriteRecord;
use crate::view::geometry::Rect;
use crate::view::palette::{self, INK, MUTED, OK, VIOLATION};
use crate::view::scene::{Anchor, Item, Shape};

/// Which writes the ledger shows, oldest first: the first lost update and the write it
/// overwrote, the first rejected write, then the most recent that fit.
fn pick(
    writes: &[WriteRecord],
    first_lost: Option<&WriteRecord>,
    lines: usize,
) -> Vec<(usize, bool)> {
    let lost = first_lost.and_then(|l| writes.iter().position(|w| w == l));
    let overwritten = lost.and_then(|i| {
        writes[..i]
            .iter()
            .rposition(|w| w.accepted && w.client != writes[i].client)
    });
    let rejected = writes.iter().position(|w| !w.accepted);
    let mut keep: Vec<usize> = [overwritten, lost, rejected]
        .into_iter()
        .flatten()
        .collect();
    for i in (0..writes.len()).rev() {
        if keep.len() >= lines {
            break;
        }
        if !keep.contains(&i) {
            keep.push(i);
        }
    }
    keep.truncate(lines);
    crate::sort::all(&mut keep);
    keep.into_iter()
        .map(|i| (i, Some(i) == overwritten))
        .collect()
}

impl Builder<'_> {
    pub fn resource(&mut self) {
        let Some(r) = self.g.resource else { return };
        let res = &self.f.resource;
        self.push(
            Item::new(
                "res",
                Shape::Rect {
                    x: r.x,
                    y: r.y,
                    w: r.w,
                    h: r.h,
                    rx: 10.0,
                },
                "ls-resource",
            )
            .fill("#ffffff")
            .stroke("#c2c8d0")
            .attr("stroke-width", "1.5"),
        );
        let big = self.g.ty.big;
        let title = if let Some(waited) = res.all_done {
            self.done_title(waited)
        } else if res.ids {
            self.say(
                format!("ID generator · last ID {}", res.value),
                format!("ID 生成器 · 最近的 ID {}", res.value),
            )
        } else {
            self.say(
                format!("Protected counter = {}", res.value),
                format!("受保护的计数器 = {}", res.value),
            )
        };
        // Green only where fencing can work: tokens that order the writes. A lock without
        // tokens (every write carries 0) fences nothing, which is a warning, not a success.
        let (fence, fence_fill) = match (res.fencing, res.highest_token) {
            // A lock without tokens (Redis, Redlock, a plain lock row): say so from the start.
            (true, _) if !res.tokens => (
                self.say(
                    "fencing on, but this lock gives no token: every write carries 0",
                    "启用防护，但这把锁不提供令牌：每次写入都带 0",
                ),
                VIOLATION,
            ),
            (true, 0) if res.writes.is_empty() => (
                self.say("fencing on · no token seen yet", "启用防护 · 尚未见过令牌"),
                MUTED,
            ),
            // One write compares with nothing yet: a ZooKeeper lock's first token is its
            // node's sequence number, 0, and is no sign of a lock without tokens.
            (true, 0) if res.writes.len() == 1 => (
                self.say(
                    "fencing on · one write so far, token 0",
                    "启用防护 · 目前只有一次写入，令牌为 0",
                ),
                MUTED,
            ),
            (true, 0) if res.writes.iter().all(|w| w.token == 0) => (
                self.say(
                    "fencing on, but every token is 0: nothing to compare",
                    "启用防护，但令牌全是 0：无从比较",
                ),
                VIOLATION,
            ),
            (true, t) => (
                self.say(
                    format!("fencing on · highest token seen {}", stamp_text(t)),
                    format!("启用防护 · 见过的最大令牌 {}", stamp_text(t)),
                ),
                OK,
            ),
            (false, _) => (
                self.say(
                    "no fencing: any write is accepted",
                    "无防护令牌：任何写入都会被接受",
                ),
                MUTED,
            ),
        };
        // Once everyone is done, the title is the run's outcome and takes the whole line.
        let done = res.all_done.is_some();
        let t = self.label(
            "res:title".into(),
            r.x + 12.0,
            r.y + big as f32 + 5.0,
            big,
            Anchor::Start,
            &title,
            if done { r.w - 24.0 } else { r.w * 0.55 },
            "ls-resource__title",
        );
        t.fill = Some(if done && res.first_lost.is_some() {
            VIOLATION
        } else {
            INK
        });
        t.attrs.push(("font-weight", "600".into()));
        if done {
            t.data.push(("evidence", "all-done".into()));
        } else {
            let small = self.g.ty.small;
            let f = self.label(
                "res:fence".into(),
                r.right() - 12.0,
                r.y + big as f32 + 5.0,
                small,
                Anchor::End,
                &fence,
                r.w * 0.42,
                "ls-resource__fence",
            );
            f.fill = Some(fence_fill);
        }
        let (lines, cols) = (self.g.ledger_lines(), self.g.ledger_columns());
        let per = (lines / cols).max(1);
        let col_w = (r.w - 24.0) / cols as f32;
        // More writes than lines: the first line counts those not shown.
        let total = (res.accepted + res.rejected) as usize;
        let more = total > lines && lines >= 2;
        let shown = pick(
            &res.writes,
            res.first_lost.as_ref(),
            lines - usize::from(more),
        );
        if more {
            let n = total - shown.len();
            let text = self.say(
                format!("+{n} earlier writes"),
                format!("另有 {n} 次更早的写入"),
            );
            self.ledger_note("res:more", r, text, col_w - 12.0);
        }
        for (n, (i, struck)) in shown.into_iter().enumerate() {
            let n = n + usize::from(more);
            let (col, row) = (n / per, n % per);
            let y = r.y + big as f32 + 14.0 + self.g.line_h * (row as f32 + 0.75);
            self.ledger_line(
                &res.writes[i],
                struck,
                r.x + 12.0 + col_w * col as f32,
                y,
                col_w - 12.0,
            );
        }
        if res.writes.is_empty() && lines > 0 {
            let text = self.say("no writes yet", "还没有写入");
            self.ledger_note("res:empty", r, text, r.w - 24.0);
        }
    }

    /// The run's outcome once every client is done: what the lock bought and what it cost.
    fn done_title(&self, waited: u64) -> String {
        let res = &self.f.resource;
        let v = res.value;
        let redone = match res.rejected {
            0 => (String::new(), String::new()),
            n => (
                format!(" · {n} stale write rejected, redone"),
                format!(" · {n} 次过期写入被拒后重做"),
            ),
        };
        match (res.ids, res.first_lost.is_some()) {
            (true, false) => self.say(
                format!("IDs 1–{v}, each handed out once · {waited} ticks spent waiting"),
                format!("ID 1–{v}，每个只分配一次 · 共等待 {waited} 个时钟单位"),
            ),
            (true, true) => self.say(
                format!("Last ID {v}: an ID was handed out twice"),
                format!("最后的 ID {v}：有 ID 被分配了两次"),
            ),
            (false, false) => self.say(
                format!("Counter = {v}: every increment counted{}", redone.0),
                format!("计数器 = {v}：每次递增都被记下{}", redone.1),
            ),
            (false, true) => self.say(
                format!("Counter = {v}: an update was lost"),
                format!("计数器 = {v}：丢失了一次更新"),
            ),
        }
    }

    /// A muted note on the ledger's first line ("no writes yet", "+7 earlier writes").
    fn ledger_note(&mut self, key: &str, r: Rect, text: String, max: f32) {
        let y = r.y + self.g.ty.big as f32 + 14.0 + self.g.line_h * 0.75;
        let small = self.g.ty.small;
        let t = self.label(
            key.into(),
            r.x + 12.0,
            y,
            small,
            Anchor::Start,
            &text,
            max,
            "ls-ledger",
        );
        t.fill = Some(MUTED);
    }

    fn ledger_line(&mut self, w: &WriteRecord, struck: bool, x: f32, y: f32, max: f32) {
        let small = self.g.ty.small;
        let k = format!("w{}:{}", w.at, w.client);
        let who = format!("C{}", w.client + 1);
        let ids = self.f.resource.ids;
        let what = if ids {
            format!("ID {}", w.value)
        } else {
            format!("← {}", w.value)
        };
        let token = if self.f.resource.fencing && self.f.resource.tokens {
            let t = stamp_text(w.token);
            self.say(format!("token {t}"), format!("令牌 {t}"))
        } else {
            String::new()
        };
        let (verdict, ink, evidence) = if !w.accepted {
            // The highest token the resource had seen then, not now.
            let h = self
                .f
                .resource
                .writes
                .iter()
                .take_while(|x| !std::ptr::eq(*x, w))
                .filter(|x| x.accepted)
                .map(|x| x.token)
                .max()
                .unwrap_or(self.f.resource.highest_token);
            (
                self.say(
                    format!("× rejected: {} < {h}", w.token),
                    format!("× 被拒绝：{} < {h}", w.token),
                ),
                VIOLATION,
                Some("ledger-rejected"),
            )
        } else if w.lost_update {
            let v = if ids {
                self.say("× the same ID twice", "× 同一个 ID 出现两次")
            } else {
                self.say("× overwrote an update", "× 覆盖了别人的更新")
            };
            (v, VIOLATION, Some("ledger-lost"))
        } else if struck && ids {
            (
                self.say("× the same ID again below", "× 下面又分配了同一个 ID"),
                VIOLATION,
                Some("ledger-lost"),
            )
        } else if struck {
            (self.say("lost", "丢失"), VIOLATION, Some("ledger-lost"))
        } else {
            ("✓".to_string(), OK, None)
        };
        let chip_right = x + crate::view::geometry::Type::width("C10", small, false) + 10.0;
        self.chip(
            &format!("{k}:who"),
            chip_right,
            y - small as f32 * 0.36,
            (small, f32::INFINITY),
            &who,
            palette::client_colour(w.client),
            palette::client_text(w.client),
            None,
        );
        let line = format!("t={}  {what}  {token}  {verdict}", w.at).replace("    ", "  ");
        // Short of room the verdict stays: the time goes first, then the token.
        let forms = [
            line.clone(),
            format!("{what}  {token}  {verdict}").replace("    ", "  "),
            format!("{what}  {verdict}"),
        ];
        let t = self.label_forms(
            format!("{k}:line"),
            chip_right + 8.0,
            y,
            small,
            Anchor::Start,
            &forms,
            max - (chip_right - x) - 8.0,
            "ls-ledger",
        );
        t.fill = Some(if evidence.is_some() { ink } else { INK });
        if let Some(e) = evidence {
            t.data.push(("evidence", e.into()));
        }
        if struck && !ids {
            let width = (crate::view::geometry::Type::width(&line, small, false) * 0.92)
                .min(max - (chip_right - x) - 8.0);
            let yy = y - small as f32 * 0.32;
            self.push(
                Item::new(
                    format!("{k}:strike"),
                    Shape::Line {
                        x1: chip_right + 6.0,
                        y1: yy,
                        x2: chip_right + 10.0 + width,
                        y2: yy,
                    },
                    "ls-ledger__strike",
                )
                .stroke(VIOLATION)
                .attr("stroke-width", "2")
                .data("evidence", "ledger-lost"),
            );
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(at: u64, client: usize, accepted: bool, lost: bool) -> WriteRecord {
        WriteRecord {
            at,
            client,
            value: at,
            token: at as i64,
            accepted,
            lost_update: lost,
        }
    }

    #[test]
    fn the_lost_update_and_what_it_overwrote_stay_pinned() {
        let mut writes: Vec<WriteRecord> = vec![
            w(1, 0, true, false),
            w(2, 1, true, false),
            w(3, 0, true, true),
        ];
        writes.extend((4..20).map(|t| w(t, 2, true, false)));
        let shown = pick(&writes, Some(&writes[2].clone()), 4);
        assert_eq!(shown, vec![(1, true), (2, false), (17, false), (18, false)]);
    }
}
