//! A client's status in shorter forms, for cards that are short of room: the words that carry
//! the lesson stay whole ("holds", "believes", "too few"), a node keeps its sequence number
//! ("watches …0003"); never half a word.

use super::lanes::Status;
use super::stage::name_forms;
use crate::narrate::{compact_path, phase_text};
use crate::recipes::Phase;
use crate::sim::Lang;

impl Status {
    /// The status's words, longest first: the first is the card's full label.
    pub fn forms(&self, hold_count: u32, lang: Lang) -> Vec<String> {
        let full = self.text(hold_count, lang);
        let zh = lang == Lang::Zh;
        let pick = |en: &str, z: &str| if zh { z.to_string() } else { en.to_string() };
        // A name's forms after the word; a directory (no sequence number) last goes whole.
        let named = |en: &str, z: &str, path: &str| -> Vec<String> {
            let names = name_forms(path);
            let word = pick(en, z);
            let bare =
                (names.len() == 1).then(|| word.trim_end_matches([' ', ':', '：']).to_string());
            names
                .iter()
                .map(|n| format!("{word}{n}"))
                .chain(bare)
                .collect()
        };
        let mut forms = match self {
            Status::Holds if hold_count > 1 => {
                vec![pick("holds ×", "持有 ×") + &hold_count.to_string()]
            }
            Status::Holds => vec![pick("holds", "持有锁")],
            Status::BelievesOnly => vec![
                pick("thinks it holds", "以为持有"),
                pick("believes", "以为持有"),
            ],
            Status::Unlocked => vec![pick("no lock", "不加锁")],
            Status::Watches(p) => named("watches ", "监视 ", p),
            Status::SetsWatch(p) => {
                let mut f = named("asks to watch ", "正在请求监视 ", p);
                f.extend(named("asks ", "请求监视 ", p));
                f
            }
            Status::Notified(p) => {
                let mut f = named("watch fired: ", "监视已触发：", p);
                f.extend(named("fired: ", "已触发：", p));
                f
            }
            Status::Saw { held, stale } => saw_forms(*held, *stale, zh),
            Status::RowWait(h) => vec![pick("waits for C", "等待 C") + &(h + 1).to_string()],
            Status::Votes {
                votes,
                masters,
                waiting,
                unwinding: true,
            } if *waiting > 0 => vec![
                pick("{v}/{m}: too few; unlocking", "{v}/{m} 票：不够；解锁中")
                    .replace("{v}", &votes.to_string())
                    .replace("{m}", &masters.to_string()),
                pick("{v}/{m}: too few", "{v}/{m} 票：不够")
                    .replace("{v}", &votes.to_string())
                    .replace("{m}", &masters.to_string()),
                pick("too few; unlocking", "票不够；解锁中"),
            ],
            Status::Phase(p) => phase_forms(p, zh),
            _ => vec![],
        };
        forms.insert(0, full);
        forms.dedup();
        forms
    }
}

/// A phase's shorter forms (after its full text).
fn phase_forms(p: &Phase, zh: bool) -> Vec<String> {
    let pick = |en: &str, z: &str| if zh { z.to_string() } else { en.to_string() };
    match p {
        Phase::Creating => vec![pick("creating", "创建节点")],
        Phase::Requesting => vec![pick("asking", "请求锁")],
        Phase::Listing => vec![pick("listing", "列出")],
        Phase::Syncing | Phase::Reading | Phase::Read(_) => read_forms(p, zh),
        Phase::Holding => vec![pick("holding", "持有")],
        Phase::Backoff => vec![
            pick("busy: retrying later", "锁被占用"),
            pick("busy", "被占用"),
        ],
        Phase::Waiting(x) => {
            let short = compact_path(x);
            let mut f = vec![pick("waiting for ", "等待 ") + &short];
            f.extend(
                name_forms(x)
                    .iter()
                    .map(|n| pick("waits for ", "等待 ") + n),
            );
            f.push(pick("waiting", "等待中"));
            f
        }
        Phase::Watching(x) => name_forms(x)
            .iter()
            .map(|n| pick("watching ", "监视 ") + n)
            .collect(),
        _ => vec![],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_forms_keep_the_word_and_the_sequence_number() {
        let w = Status::Watches(
            "/locks/_c_9b2d6b1e-3e0b-4f32-a9b6-c7d2c0a4c1aa-lock-0000000003".into(),
        );
        let f = w.forms(0, Lang::En);
        assert_eq!(f.last().unwrap(), "watches …03");
        assert!(f
            .iter()
            .all(|s| s.starts_with("watches ") && s.ends_with("03")));
        let h = Status::Holds.forms(2, Lang::En);
        assert!(h.iter().all(|s| s.contains("×2")), "{h:?}");
        assert_eq!(
            Status::BelievesOnly.forms(1, Lang::Zh).last().unwrap(),
            "以为持有"
        );
    }
}

/// An observer's phases (observers run in the full bundle only).
fn read_forms(p: &Phase, zh: bool) -> Vec<String> {
    let pick = |en: &str, cn: &str| if zh { cn } else { en }.to_string();
    match p {
        _ if !crate::FULL => Vec::new(),
        Phase::Syncing => vec![pick("syncing", "同步中")],
        Phase::Reading => vec![pick("reading", "读取中")],
        Phase::Read(Some(_)) => vec![pick("read: held", "读到：被持有")],
        _ => vec![pick("read: free", "读到：空闲")],
    }
}

/// An observer's last read, stale or not.
fn saw_forms(held: bool, stale: bool, zh: bool) -> Vec<String> {
    let pick = |en: &str, cn: &str| if zh { cn } else { en }.to_string();
    match (held, stale) {
        _ if !crate::FULL => Vec::new(),
        (_, false) => read_forms(&Phase::Read(held.then_some(0)), zh),
        (false, true) => vec![
            pick("stale: saw it free", "过时：读到空闲"),
            pick("stale read", "过时读"),
        ],
        (true, true) => vec![
            pick("stale: saw it held", "过时：读到被持有"),
            pick("stale read", "过时读"),
        ],
    }
}

/// An observer's read in words.
pub(super) fn saw_text(held: bool, stale: bool, lang: Lang) -> String {
    let zh = lang == Lang::Zh;
    let text = match (held, stale, zh) {
        _ if !crate::FULL => "",
        (_, false, _) => return phase_text(&Phase::Read(held.then_some(0)), lang),
        (false, true, false) => "stale read: no /lock, but the leader has it",
        (false, true, true) => "过时读：没有 /lock，但领导者上有",
        (true, true, false) => "stale read: /lock, but the leader deleted it",
        (true, true, true) => "过时读：有 /lock，但领导者已删除",
    };
    text.into()
}
