//! The course's chapters: the lesson files in `lessons/` (read once, in their numbered
//! order), and the author's lessons the page has opened.

use std::sync::OnceLock;

use super::lesson::Shared;
use super::Chapter;

/// The course's lesson files, in the order they are taught.
const FILES: [&str; 18] = [
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
    include_str!("../../../lessons/16-redlock.json"),
    include_str!("../../../lessons/17-matrix.json"),
    include_str!("../../../lessons/18-hunt.json"),
];

/// The course, in order.
pub fn course() -> &'static [Chapter] {
    static COURSE: OnceLock<Vec<Chapter>> = OnceLock::new();
    COURSE.get_or_init(|| {
        FILES
            .iter()
            .filter_map(|f| Chapter::from_json(f).ok())
            .collect()
    })
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

    #[test]
    fn every_lesson_file_reads_and_is_written_back_the_same() {
        for f in FILES {
            let ch = Chapter::from_json(f).unwrap_or_else(|e| panic!("{e}\n{f}"));
            assert_eq!(ch.to_json(), f, "{}: not in the canonical form", ch.id);
        }
        assert_eq!(course().len(), FILES.len());
    }
}
