//! Fitting a label to its room without cutting a word: a label is one or more forms, longest
//! first (a status's short forms, a name without its prefix); the first form that fits is
//! drawn, else the longest run of whole segments from a form's start ("its server is down;
//! it thinks: connected" → "its server is down"), else nothing. A name alone is the exception
//! that may lose its middle (`fit_mid`): never the end that tells names apart.

use crate::view::geometry::Type;

/// What separates a label's segments: a narrow label drops whole segments from its end.
const SEPS: &[&str] = &[" · ", "; ", ": ", ", ", "  ", "；", "：", "，", " ·"];

/// The first form that fits `max` pixels whole, else the longest prefix of whole segments of
/// any form (the first form's first), else None.
pub(crate) fn fit_forms<S: AsRef<str>>(forms: &[S], size: u16, max: f32) -> Option<String> {
    let fits = |s: &str| Type::width(s, size, false) <= max;
    if let Some(f) = forms.iter().find(|f| fits(f.as_ref())) {
        return Some(f.as_ref().to_string());
    }
    forms.iter().find_map(|f| {
        let f = f.as_ref();
        cuts(f)
            .into_iter()
            .rev()
            .map(|at| f[..at].trim_end())
            .find(|p| !p.is_empty() && fits(p))
            .map(str::to_string)
    })
}

/// Where `s` may be cut: before each separator, in order.
fn cuts(s: &str) -> Vec<usize> {
    let mut at: Vec<usize> = SEPS
        .iter()
        .flat_map(|sep| s.match_indices(sep).map(|(i, _)| i))
        .filter(|&i| i > 0)
        .collect();
    crate::sort::all(&mut at);
    at.dedup();
    at
}

/// A node or key name and its shorter forms: without a random prefix, then only its last
/// digits after an ellipsis (more when they matter), then only the digits that matter (at
/// least two): the sequence number, or a lease id's counter, that tells it from its neighbours.
pub(crate) fn name_forms(name: &str) -> Vec<String> {
    let last = name.rsplit('/').next().unwrap_or(name);
    let tail = crate::narrate::tail_name(last);
    let mut forms = vec![tail.clone()];
    let chars: Vec<char> = tail.chars().collect();
    let digits = chars
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_digit())
        .count();
    if chars.len() > 6 && digits >= 4 {
        let keep = significant(&chars[chars.len() - digits..]).max(4);
        let end: String = chars[chars.len() - keep..].iter().collect();
        forms.push(format!("…{end}"));
        let least = significant(&chars[chars.len() - digits..]).max(2);
        if least < keep {
            let end: String = chars[chars.len() - least..].iter().collect();
            forms.push(format!("…{end}"));
        }
    }
    forms
}

/// How many of a sequence number's last digits matter (leading zeros do not).
fn significant(digits: &[char]) -> usize {
    digits.len() - digits.iter().take_while(|c| **c == '0').count()
}

/// A name fitted to `max` pixels by cutting its middle, so both its start and the end that
/// tells names apart (a sequence number, a lease id) stay.
pub(crate) fn fit_mid(text: &str, size: u16, mono: bool, max: f32) -> String {
    if Type::width(text, size, mono) <= max {
        return text.to_string();
    }
    let chars: Vec<char> = text.chars().collect();
    let per = Type::width("m", size, mono).max(1.0);
    let keep = ((max / per).floor() as usize).saturating_sub(1).max(2);
    let tail = (keep * 3 / 5).min(chars.len());
    let head = keep.saturating_sub(tail).min(chars.len() - tail);
    let mut out: String = chars[..head].iter().collect();
    out.push('…');
    out.extend(&chars[chars.len() - tail..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_keep_both_ends() {
        let s = fit_mid("lock/694d7a3c1b2e0001", 12, true, 110.0);
        assert!(
            s.starts_with("lock/") && s.ends_with("0001") && s.contains('…'),
            "{s}"
        );
        assert_eq!(fit_mid("short", 12, true, 200.0), "short");
    }

    #[test]
    fn a_label_drops_whole_segments_never_half_a_word() {
        let s = "its server is down; it thinks: connected · session ends in 7";
        assert_eq!(fit_forms(&[s], 12, 1000.0).as_deref(), Some(s));
        assert_eq!(
            fit_forms(&[s], 12, 140.0).as_deref(),
            Some("its server is down")
        );
        assert_eq!(fit_forms(&[s], 12, 40.0), None);
        // A shorter form is preferred to a cut of the longer one.
        let forms = ["watches lock-0000000003", "watches …0003"];
        assert_eq!(
            fit_forms(&forms, 12, 100.0).as_deref(),
            Some("watches …0003")
        );
        assert_eq!(
            fit_forms(&["无防护令牌：任何写入都被接受"], 12, 80.0).as_deref(),
            Some("无防护令牌")
        );
    }

    #[test]
    fn a_short_name_keeps_its_sequence_number() {
        assert_eq!(
            name_forms("/locks/lock-0000000003"),
            ["lock-0000000003", "…0003", "…03"]
        );
        assert_eq!(name_forms("lock-0000012345")[1], "…12345");
        assert_eq!(name_forms("694d7a3c1b2e0001")[1], "…0001");
        assert_eq!(name_forms("/lock"), ["lock"]);
    }
}
