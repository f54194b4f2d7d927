//! What a learner has answered: per chapter, the step of each question and the option chosen
//! (with whether it was right, and whether the run has shown the answer yet: until it has,
//! nothing says right or wrong), and which chapters were finished. Kept for the session and,
//! where the page may use it, in localStorage as a short text that parses back whatever it is
//! given (a bad or foreign value is ignored, never trusted).

use crate::sorted::{SortedMap, SortedSet};

use super::questions::Question;

/// At most this many answers are kept (a stored value is read up to it).
const MAX_ANSWERS: usize = 400;
/// A stored value longer than this is ignored.
pub const MAX_STORED: usize = 16 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub chosen: usize,
    pub right: bool,
    /// The learner has reached the step that shows the answer: only then is it marked.
    pub shown: bool,
}

/// How a chapter's answers went, for the colour of its mark in the chapter list.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Nothing answered and shown yet (a finished chapter without questions is `Right`).
    None,
    Right,
    Wrong,
    /// Some right, some wrong.
    Mixed,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Progress {
    /// (chapter id, step the question is posed at) → the answer.
    answers: SortedMap<(String, u64), Answer>,
    finished: SortedSet<String>,
}

impl Progress {
    pub fn answer(&self, chapter: &str, q: &Question) -> Option<Answer> {
        self.answers.get(&(chapter.to_string(), q.at)).copied()
    }

    /// Records a choice (the first one counts; asking again does not change it).
    pub fn choose(&mut self, chapter: &str, q: &Question, chosen: usize) -> Answer {
        let a = Answer {
            chosen,
            right: chosen == q.answer,
            shown: false,
        };
        if self.answers.len() >= MAX_ANSWERS {
            return a;
        }
        *self.answers.entry((chapter.to_string(), q.at)).or_insert(a)
    }

    /// An answer to the question posed at `at` that the run has not shown yet.
    pub fn pending(&self, chapter: &str, at: u64) -> bool {
        self.answers
            .get(&(chapter.to_string(), at))
            .is_some_and(|a| !a.shown)
    }

    /// The run has shown the answer to the question posed at `at`: its verdict may show.
    /// True if that changed anything.
    pub fn reveal(&mut self, chapter: &str, at: u64) -> bool {
        match self.answers.get_mut(&(chapter.to_string(), at)) {
            Some(a) if !a.shown => {
                a.shown = true;
                true
            }
            _ => false,
        }
    }

    pub fn finish(&mut self, chapter: &str) {
        if self.finished.len() < MAX_ANSWERS {
            self.finished.insert(chapter.to_string());
        }
    }

    pub fn finished(&self, chapter: &str) -> bool {
        self.finished.contains(chapter)
    }

    /// (right, answered) in a chapter, counting only answers the run has shown.
    pub fn score(&self, chapter: &str) -> (usize, usize) {
        let mine = self
            .answers
            .iter()
            .filter(|((c, _), a)| c == chapter && a.shown);
        mine.fold((0, 0), |(r, n), (_, a)| (r + usize::from(a.right), n + 1))
    }

    /// The chapter list's mark: a tick only when every shown answer was right (or, with none
    /// shown, when the chapter was finished), a cross when none was, the bare score between.
    pub fn mark(&self, chapter: &str) -> String {
        match self.score(chapter) {
            (r, a) if a > 0 && r == a => format!("✓ {r}/{a}"),
            (0, a) if a > 0 => format!("✗ 0/{a}"),
            (r, a) if a > 0 => format!("{r}/{a}"),
            _ if self.finished(chapter) => "✓".to_string(),
            _ => String::new(),
        }
    }

    /// The mark's colour: right (every shown answer right, or finished without any), wrong
    /// (none right), mixed, or none.
    pub fn verdict(&self, chapter: &str) -> Verdict {
        match self.score(chapter) {
            (r, a) if a > 0 && r == a => Verdict::Right,
            (0, a) if a > 0 => Verdict::Wrong,
            (_, a) if a > 0 => Verdict::Mixed,
            _ if self.finished(chapter) => Verdict::Right,
            _ => Verdict::None,
        }
    }

    /// The stored form: `done:id,id;id@step=chosen+|-[~];…` (`~`: not shown yet).
    pub fn to_text(&self) -> String {
        let done: Vec<&str> = self.finished.iter().map(String::as_str).collect();
        let mut s = format!("done:{}", done.join(","));
        for ((c, at), a) in &self.answers {
            let mark = if a.right { '+' } else { '-' };
            let later = if a.shown { "" } else { "~" };
            s.push_str(&format!(";{c}@{at}={}{mark}{later}", a.chosen));
        }
        s
    }

    /// Reads a stored value; anything malformed is skipped.
    pub fn from_text(s: &str) -> Progress {
        let mut p = Progress::default();
        if s.len() > MAX_STORED {
            return p;
        }
        let mut parts = s.split(';');
        if let Some(done) = parts.next().and_then(|d| d.strip_prefix("done:")) {
            for id in done.split(',').filter(|id| known(id)) {
                p.finish(id);
            }
        }
        for part in parts.take(MAX_ANSWERS) {
            if let Some((key, a)) = entry(part) {
                p.answers.insert(key, a);
            }
        }
        p
    }
}

/// A chapter id that exists (stored ids of a removed chapter are dropped).
fn known(id: &str) -> bool {
    super::course().iter().any(|c| c.id == id)
}

fn entry(part: &str) -> Option<((String, u64), Answer)> {
    let (chapter, rest) = part.split_once('@')?;
    let (at, choice) = rest.split_once('=')?;
    let (choice, shown) = match choice.strip_suffix('~') {
        Some(c) => (c, false),
        None => (choice, true),
    };
    let right = match choice.chars().last()? {
        '+' => true,
        '-' => false,
        _ => return None,
    };
    let chosen: usize = choice[..choice.len() - 1].parse().ok().filter(|c| *c < 8)?;
    let at: u64 = at.parse().ok()?;
    let a = Answer {
        chosen,
        right,
        shown,
    };
    known(chapter).then(|| ((chapter.to_string(), at), a))
}

/// The question the learner faces at `cursor`: the latest one posed at or before it whose
/// answer is not yet shown (its reveal step is still ahead or here).
pub fn current(questions: &[Question], cursor: u64) -> Option<&Question> {
    questions
        .iter()
        .rev()
        .find(|q| q.at <= cursor && cursor <= q.reveal)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::learn::Ask;

    fn q(at: u64, reveal: u64) -> Question {
        Question {
            ask: Ask::Notified,
            at,
            reveal,
            prompt: [String::new(), String::new()],
            options: vec![["1".into(), "1".into()], ["2".into(), "2".into()]],
            answer: 1,
        }
    }

    #[test]
    fn answers_round_trip_and_the_first_choice_counts() {
        let mut p = Progress::default();
        assert!(!p.choose("herd", &q(10, 20), 0).right);
        assert!(
            !p.choose("herd", &q(10, 20), 1).right,
            "asked again: unchanged"
        );
        assert!(p.choose("herd", &q(30, 40), 1).right);
        assert_eq!(
            p.mark("herd"),
            "",
            "nothing is marked before the run shows it"
        );
        assert_eq!(Progress::from_text(&p.to_text()), p, "kept unshown");
        assert!(p.reveal("herd", 10) && p.reveal("herd", 30));
        assert!(!p.reveal("herd", 30), "once");
        p.finish("ids");
        let back = Progress::from_text(&p.to_text());
        assert_eq!(back, p);
        assert_eq!(back.score("herd"), (1, 2));
        assert!(back.finished("ids") && !back.finished("herd"));
        assert_eq!(back.mark("herd"), "1/2", "one wrong answer: no tick");
        assert_eq!(back.mark("ids"), "✓");
        assert_eq!(back.mark("queue"), "");
        assert_eq!(back.verdict("herd"), Verdict::Mixed);
        let mut wrong = Progress::default();
        wrong.choose("herd", &q(10, 20), 0);
        wrong.reveal("herd", 10);
        wrong.finish("herd");
        assert_eq!(
            wrong.mark("herd"),
            "✗ 0/1",
            "a wrong answer is never ticked"
        );
        assert_eq!(wrong.verdict("herd"), Verdict::Wrong);
    }

    #[test]
    fn a_bad_stored_value_is_ignored_piece_by_piece() {
        let p = Progress::from_text(
            "done:ids,nope,herd;herd@5=1+;x@1=0+;herd@=1+;herd@9=99+;herd@7=1?;;",
        );
        assert!(p.finished("ids") && p.finished("herd"));
        assert_eq!(p.score("herd"), (1, 1));
        assert_eq!(
            Progress::from_text(&"x".repeat(MAX_STORED + 1)),
            Progress::default()
        );
        let many: String = (0..1000).map(|i| format!(";herd@{i}=0+")).collect();
        assert_eq!(
            Progress::from_text(&format!("done:{many}")).score("herd").1,
            MAX_ANSWERS
        );
    }

    #[test]
    fn the_current_question_runs_from_its_step_to_its_reveal() {
        let qs = [q(10, 20), q(30, 40)];
        assert_eq!(current(&qs, 9), None);
        assert_eq!(current(&qs, 10).map(|q| q.at), Some(10));
        assert_eq!(current(&qs, 20).map(|q| q.at), Some(10));
        assert_eq!(current(&qs, 25), None);
        assert_eq!(current(&qs, 40).map(|q| q.at), Some(30));
    }
}
