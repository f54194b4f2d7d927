//! `lesson=…`: an author's lesson in a link (base64url of its JSON, as `scenario` is); its run
//! stands for the run parameters, and only the frame, the language and embed mode go beside it.

use super::UrlState;
use crate::view::learn::lesson::Shared;

/// Reads the lesson and takes its run (a bad lesson leaves the default scenario, with the
/// reason); the lean page only notes that there is one (see `UrlState::needs_full`).
pub(super) fn take(st: &mut UrlState, v: &str, errors: &mut Vec<String>) {
    // The lean first page hands a lesson over to the full one (the reader would be ~10 KB
    // gzip of the lean page, against issue 23's budget).
    if !crate::view::FULL && !cfg!(test) {
        st.elsewhere = true;
        return;
    }
    match Shared::from_value(v) {
        Ok(l) => {
            st.preset = l.lesson.preset_name().to_string();
            // `None`: a preset only the full bundle knows (the page hands over).
            if let Some(run) = l.lesson.run() {
                st.run = run;
            }
            st.lesson = Some(Box::new(l));
        }
        Err(e) => errors.push(format!("`lesson`: {e}; showing the default scenario")),
    }
}

/// The rest of a lesson's link: the frame, the language, embed mode.
pub(super) fn finish(mut q: form_urlencoded::Serializer<'_, String>, st: &UrlState) -> String {
    q.append_pair("at", &st.at.to_string());
    if let Some(l) = st.lang {
        q.append_pair(
            "lang",
            if l == crate::sim::Lang::Zh {
                "zh"
            } else {
                "en"
            },
        );
    }
    if st.embed {
        q.append_pair("embed", "1");
    }
    for (k, v) in st.player.pairs() {
        q.append_pair(k, &v);
    }
    q.finish()
}

#[cfg(test)]
mod tests {
    use super::super::{parse, to_query};
    use crate::sim::Lang;
    use crate::view::learn::lesson::Shared;
    use crate::view::learn::{Chapter, Stop, Text};

    fn lesson() -> Chapter {
        let mut ch = crate::view::learn::find("herd").unwrap().1.clone();
        ch.id = "my-herd".into();
        ch.stops.push(Stop {
            step: Some(7),
            title: Text::new("Look", "看"),
            text: Text::new("Every waiter watches /lock.", "每个等待者都在监视 /lock。"),
            ..Stop::default()
        });
        ch
    }

    #[test]
    fn a_lesson_link_carries_the_lesson_and_its_run_and_reads_back_the_same() {
        let ch = lesson();
        let (mut st, errors) = parse("");
        assert!(errors.is_empty());
        let shared = Shared::of(ch.clone());
        (st.lesson, st.at, st.lang) = (Some(Box::new(shared.clone())), 7, Some(Lang::Zh));
        let q = to_query(&st);
        assert!(
            q.starts_with("lesson=") && q.ends_with("&at=7&lang=zh"),
            "{q}"
        );
        let (back, errors) = parse(&q);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(back.lesson.as_deref(), Some(&shared));
        assert_eq!((back.preset.as_str(), back.at), ("herd", 7));
        assert_eq!(back.run, ch.run().unwrap());
    }

    #[test]
    fn a_bad_lesson_link_says_why_and_shows_the_default() {
        for (q, says) in [
            ("lesson=%%%", "not base64url"),
            ("lesson=e30", "missing field"),
            ("lesson=eyJsb2Nrc3RlcF9sZXNzb24iOjJ9", "missing field"),
        ] {
            let (st, errors) = parse(q);
            assert!(st.lesson.is_none(), "{q}");
            assert!(errors.iter().any(|e| e.contains(says)), "{q}: {errors:?}");
        }
    }
}
