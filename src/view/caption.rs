//! The caption under the stage: a key frame's caption (or, before the first step, the
//! preset's title) over what the step did, unless the key caption already says it (a fault).
//! The page, the embed API and the animated export show the same words.

use crate::sim::moments::Moment;
use crate::sim::Lang;

/// The caption's two parts for the frame at `step`: the key line (empty when the frame is
/// not a key frame, or when a course question is posed here: `posing`, see
/// [`crate::view::learn::veil`]) and what the step did (`narration`), when the key line does
/// not say it.
pub fn parts(
    step: u64,
    preset: &str,
    here: &[Moment],
    narration: &str,
    lang: Lang,
    posing: bool,
) -> (String, Option<String>) {
    let title = (step == 0)
        .then(|| crate::sim::presets::find(preset).map(|p| p.title(lang)))
        .flatten();
    // Where a question is posed, only an author's stop keeps its words (the run's own key
    // frames would tell what comes next).
    let shown = |m: &&Moment| !posing || m.kind == crate::sim::moments::Kind::Stop;
    let key = match title {
        Some(t) => t.to_string(),
        None => here
            .iter()
            .filter(shown)
            .map(|m| m.caption(lang))
            .collect::<Vec<_>>()
            .join(gap(lang)),
    };
    let now = (!key.contains(narration)).then(|| narration.to_string());
    (key, now)
}

/// What goes between two sentences: a space in English, nothing after a Chinese full stop.
pub fn gap(lang: Lang) -> &'static str {
    match lang {
        Lang::Zh => "",
        _ => " ",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_frame_of_a_preset_is_titled_and_other_frames_say_what_happened() {
        let (key, now) = parts(0, "herd", &[], "Nothing has happened yet.", Lang::En, false);
        assert_eq!(
            key,
            crate::sim::presets::find("herd").unwrap().title(Lang::En)
        );
        assert_eq!(now.as_deref(), Some("Nothing has happened yet."));
        let (key, now) = parts(
            3,
            "herd",
            &[],
            "C1's create reaches the server.",
            Lang::En,
            false,
        );
        assert_eq!(key, "");
        assert_eq!(now.as_deref(), Some("C1's create reaches the server."));
    }
}
