//! The course's chapters: the lesson files in `lessons/` (read once, in their numbered
//! order), and the author's lessons the page has opened.

use std::sync::OnceLock;

use super::lesson::Shared;
use super::{Ask, Chapter, Hunt, Stop, Text};
use crate::recipes::program::starters::Starter;
use crate::recipes::RecipeKind;
use crate::sim::moments::Kind;

/// A stop as `build.rs` writes it: step, key-frame kind, question, title and text (en, zh).
type StopRow = (Option<u64>, Option<Kind>, Option<Ask>, [&'static str; 4]);
/// A chapter as `build.rs` writes it: id, title/intro/takeaway (en, zh), preset, stops,
/// hunts, matrix.
type Row = (
    &'static str,
    [&'static str; 6],
    Option<&'static str>,
    &'static [StopRow],
    &'static [Hunt],
    bool,
);

/// The lesson files in `lessons/`, as `build.rs` wrote them: static data, no reader needed.
const ROWS: &[Row] = include!(concat!(env!("OUT_DIR"), "/course.rs"));

/// The course, in order. The lean first page has none: it hands the course over to the full
/// page (its texts and its UI were 18 KB gzip of the lean page; posters show a chapter at
/// once all the same). Its tests read the course as the full page does.
pub fn course() -> &'static [Chapter] {
    if !crate::FULL && !cfg!(test) {
        return &[];
    }
    static COURSE: OnceLock<Vec<Chapter>> = OnceLock::new();
    COURSE.get_or_init(|| ROWS.iter().map(chapter).collect())
}

fn chapter(r: &Row) -> Chapter {
    let (id, t, preset, stops, hunts, matrix) = *r;
    Chapter {
        lockstep_lesson: super::lesson::VERSION,
        id: id.into(),
        title: Text::new(t[0], t[1]),
        intro: Text::new(t[2], t[3]),
        takeaway: Text::new(t[4], t[5]),
        preset: preset.map(String::from),
        scenario: None,
        cmds: Vec::new(),
        stops: stops
            .iter()
            .map(|&(step, at, ask, w)| Stop {
                step,
                at,
                ask,
                title: Text::new(w[0], w[1]),
                text: Text::new(w[2], w[3]),
            })
            .collect(),
        search: hunts.to_vec(),
        matrix,
        preset_key_frames: true,
    }
}

/// How many author's lessons one page may open (each is kept for the page's life).
const MAX_ADOPTED: usize = 64;

thread_local! {
    static ADOPTED: std::cell::RefCell<Vec<&'static Shared>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// An author's lesson, kept for the page's life so the views can borrow it like a chapter;
/// the same lesson opened again is the same one. Refused past [`MAX_ADOPTED`] lessons.
pub fn adopt(ch: Shared) -> Result<&'static Shared, String> {
    ADOPTED.with_borrow_mut(|all| {
        if let Some(same) = all.iter().find(|c| ***c == ch) {
            return Ok(*same);
        }
        if all.len() >= MAX_ADOPTED {
            return Err(format!(
                "this page has opened {MAX_ADOPTED} lessons already; reload it to open more"
            ));
        }
        let kept: &'static Shared = Box::leak(Box::new(ch));
        all.push(kept);
        Ok(kept)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The files as the reader sees them.
    const FILES: [&str; 20] = [
        include_str!("../../../lessons/01-ids.json"),
        include_str!("../../../lessons/02-herd.json"),
        include_str!("../../../lessons/03-wakeup.json"),
        include_str!("../../../lessons/04-queue.json"),
        include_str!("../../../lessons/05-crash.json"),
        include_str!("../../../lessons/06-leaving.json"),
        include_str!("../../../lessons/07-recheck.json"),
        include_str!("../../../lessons/08-protection.json"),
        include_str!("../../../lessons/09-reentrant.json"),
        include_str!("../../../lessons/10-rwlock.json"),
        include_str!("../../../lessons/11-pause.json"),
        include_str!("../../../lessons/12-partition.json"),
        include_str!("../../../lessons/13-fencing.json"),
        include_str!("../../../lessons/14-services.json"),
        include_str!("../../../lessons/15-consensus.json"),
        include_str!("../../../lessons/16-stale-read.json"),
        include_str!("../../../lessons/17-redlock.json"),
        include_str!("../../../lessons/18-matrix.json"),
        include_str!("../../../lessons/19-hunt.json"),
        include_str!("../../../lessons/20-write.json"),
    ];

    #[test]
    fn every_lesson_file_reads_as_built_and_is_written_back_the_same() {
        assert_eq!(course().len(), FILES.len());
        for (f, built) in FILES.iter().zip(course()) {
            let ch = Chapter::from_json(f).unwrap_or_else(|e| panic!("{e}\n{f}"));
            assert_eq!(&ch, built, "{}: build.rs and the reader agree", ch.id);
            assert_eq!(ch.to_json(), *f, "{}: not in the canonical form", ch.id);
        }
    }
}
