//! Keyed redrawing: what the stage's `<svg>` must change to go from the markup it shows to a
//! new scene's — remove the items that left, replace the ones whose markup changed, insert the
//! new ones in place — so a step re-parses the few items that moved, not the whole picture.
//! Falls back to rewriting everything when most of it changed or when keys repeat.

use crate::sorted::SortedMap;

use super::scene::Scene;

/// What is drawn: each item's key and markup, in drawing order (one top-level element each).
pub type Drawn = Vec<(String, String)>;

/// One new item's part in a patch, in the new drawing order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Edit {
    /// The element already there stays as it is.
    Keep,
    /// The element already there is replaced by this markup.
    Replace(String),
    /// This markup is inserted before the next element already there (or at the end).
    Insert(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Patch {
    /// Rewrite the whole content.
    Full(String),
    /// Remove these children (indices into the old drawing, ascending), then walk `edits`.
    Edits {
        remove: Vec<usize>,
        edits: Vec<Edit>,
    },
}

/// The scene's markup, item by item (`moving`: transient items included, as mid-transition).
pub fn markup(scene: &Scene, moving: bool) -> Drawn {
    scene
        .items
        .iter()
        .filter(|i| moving || !i.transient)
        .map(|i| (i.key.clone(), i.svg(true)))
        .collect()
}

/// How to turn the `old` drawing into the `new` one.
pub fn diff(old: &Drawn, new: &Drawn) -> Patch {
    diff_with(old, new, true)
}

/// The same, item by item however much changed (`rewrite` false): while keyboard focus is on
/// the stage, the focused shape must survive the step.
pub fn diff_with(old: &Drawn, new: &Drawn, rewrite: bool) -> Patch {
    let full = || Patch::Full(new.iter().map(|(_, m)| m.as_str()).collect());
    let (Some(was), Some(_)) = (index(old), index(new)) else {
        return full();
    };
    // Items kept in place: those of both drawings whose old places rise in the new order
    // (greedily); any other item of both moved, so it is removed and inserted again.
    let mut last = None;
    let kept: Vec<Option<usize>> = new
        .iter()
        .map(|(k, _)| {
            let i = *was.get(k.as_str())?;
            (last.is_none_or(|l| l < i)).then(|| {
                last = Some(i);
                i
            })
        })
        .collect();
    let stays: crate::sorted::SortedSet<usize> = kept.iter().flatten().copied().collect();
    let remove: Vec<usize> = (0..old.len()).filter(|i| !stays.contains(i)).collect();
    let mut changed = remove.len();
    let mut edits = Vec::with_capacity(new.len());
    for ((_, m), at) in new.iter().zip(&kept) {
        match at {
            Some(i) if old[*i].1 == *m => edits.push(Edit::Keep),
            Some(_) => {
                changed += 1;
                edits.push(Edit::Replace(m.clone()));
            }
            None => {
                changed += 1;
                edits.push(Edit::Insert(m.clone()));
            }
        }
    }
    if rewrite && changed * 2 > new.len().max(1) {
        return full();
    }
    Patch::Edits { remove, edits }
}

/// Each key's place, or nothing when a key repeats.
fn index(d: &Drawn) -> Option<SortedMap<&str, usize>> {
    let mut m = SortedMap::new();
    d.iter()
        .enumerate()
        .all(|(i, (k, _))| m.insert(k.as_str(), i).is_none())
        .then_some(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(items: &[(&str, &str)]) -> Drawn {
        items
            .iter()
            .map(|(k, m)| (k.to_string(), m.to_string()))
            .collect()
    }

    /// Applies a patch to a list of children, as the page does to the `<svg>`.
    fn apply(old: &Drawn, p: &Patch) -> Vec<String> {
        match p {
            Patch::Full(s) => vec![s.clone()],
            Patch::Edits { remove, edits } => {
                let mut kids: Vec<String> = old
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| !remove.contains(i))
                    .map(|(_, (_, m))| m.clone())
                    .collect();
                let mut pos = 0;
                for e in edits {
                    match e {
                        Edit::Keep => {}
                        Edit::Replace(m) => kids[pos] = m.clone(),
                        Edit::Insert(m) => kids.insert(pos, m.clone()),
                    }
                    pos += 1;
                }
                vec![kids.concat()]
            }
        }
    }

    fn check(old: &Drawn, new: &Drawn) -> Patch {
        let p = diff(old, new);
        let want: String = new.iter().map(|(_, m)| m.as_str()).collect();
        assert_eq!(apply(old, &p), vec![want], "{p:?}");
        p
    }

    #[test]
    fn a_moved_item_is_replaced_and_the_rest_kept() {
        let old = d(&[("a", "<a/>"), ("b", "<b/>"), ("c", "<c/>"), ("e", "<e/>")]);
        let new = d(&[
            ("a", "<a/>"),
            ("b", "<b x=1/>"),
            ("c", "<c/>"),
            ("e", "<e/>"),
        ]);
        let p = check(&old, &new);
        assert!(matches!(p, Patch::Edits { ref remove, .. } if remove.is_empty()));
    }

    #[test]
    fn items_leave_and_arrive_in_place() {
        let old = d(&[
            ("a", "1"),
            ("b", "2"),
            ("c", "3"),
            ("d", "4"),
            ("e", "5"),
            ("f", "6"),
            ("g", "7"),
        ]);
        let new = d(&[
            ("n", "0"),
            ("a", "1"),
            ("c", "3"),
            ("m", "9"),
            ("d", "4"),
            ("e", "5"),
            ("f", "6"),
            ("g", "7"),
            ("z", "8"),
        ]);
        assert!(matches!(check(&old, &new), Patch::Edits { .. }));
    }

    #[test]
    fn an_item_that_changed_places_is_moved() {
        let old = d(&[("a", "1"), ("b", "2"), ("c", "3"), ("d", "4"), ("e", "5")]);
        let new = d(&[("a", "1"), ("c", "3"), ("d", "4"), ("e", "5"), ("b", "2")]);
        assert!(matches!(check(&old, &new), Patch::Edits { .. }));
    }

    #[test]
    fn repeated_or_mostly_new_items_are_rewritten() {
        let old = d(&[("a", "1"), ("b", "2"), ("c", "3")]);
        for new in [
            d(&[("a", "1"), ("a", "1"), ("c", "3")]),
            d(&[("x", "1"), ("y", "2"), ("c", "3")]),
        ] {
            assert!(matches!(check(&old, &new), Patch::Full(_)));
        }
        assert!(matches!(
            check(&Vec::new(), &Vec::new()),
            Patch::Edits { .. }
        ));
    }

    #[test]
    fn with_focus_on_the_stage_a_mostly_changed_drawing_is_still_patched_item_by_item() {
        let old = d(&[("a", "1"), ("b", "2"), ("c", "3")]);
        let new = d(&[("a", "9"), ("b", "8"), ("c", "3"), ("x", "4")]);
        assert!(matches!(diff(&old, &new), Patch::Full(_)));
        let p = diff_with(&old, &new, false);
        assert!(matches!(p, Patch::Edits { .. }));
        assert_eq!(apply(&old, &p), vec!["9834".to_string()]);
    }
}
