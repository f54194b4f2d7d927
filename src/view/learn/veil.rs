//! What a learner may see while a question waits for its reveal: a prediction stays a
//! prediction only if nothing on the page tells the answer first. While a question is open
//! (from the step it is posed at until the step that shows its answer) the caption at the
//! posing step drops its key-frame line (which explains what comes next), the timeline draws
//! the key frames from the posing step on plain and without their captions, and the drawer keeps
//! the chapter's introduction, the preset's lesson and its list of key frames to itself.

use super::questions::Question;

/// The question open at `cursor`: posed at or before it, answered after it.
pub fn open(questions: &[Question], cursor: u64) -> Option<&Question> {
    questions
        .iter()
        .rev()
        .find(|q| q.at <= cursor && cursor < q.reveal)
}

/// The caption's key line is dropped here: a question is posed at this very step (unless
/// another is answered here, whose answer the key line shows).
pub fn posing(questions: &[Question], cursor: u64) -> bool {
    questions
        .iter()
        .any(|q| q.at == cursor && cursor < q.reveal)
        && !questions.iter().any(|q| q.reveal == cursor)
}

/// Timeline marks from this step on are drawn plain, without their captions or colours: the
/// step the open question was posed at (its own mark's caption explains what comes next).
pub fn marks_veiled_from(questions: &[Question], cursor: u64) -> Option<u64> {
    open(questions, cursor).map(|q| q.at)
}

/// The drawer's texts that tell the whole story (the chapter's introduction, the preset's
/// lesson, the list of key frames) wait.
pub fn story_veiled(questions: &[Question], cursor: u64) -> bool {
    open(questions, cursor).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::learn::Ask;

    fn q(at: u64, reveal: u64) -> Question {
        Question {
            ask: Ask::Believers,
            at,
            reveal,
            prompt: [String::new(), String::new()],
            options: Vec::new(),
            answer: 0,
        }
    }

    #[test]
    fn a_question_is_open_from_its_step_until_its_reveal() {
        let qs = [q(10, 20)];
        assert!(open(&qs, 9).is_none() && open(&qs, 20).is_none());
        assert!(open(&qs, 10).is_some() && open(&qs, 19).is_some());
        assert!(posing(&qs, 10) && !posing(&qs, 11));
        assert_eq!(marks_veiled_from(&qs, 12), Some(10));
        assert_eq!(
            marks_veiled_from(&qs, 20),
            None,
            "after the reveal every mark shows"
        );
        assert!(story_veiled(&qs, 15) && !story_veiled(&qs, 25));
    }
}
