//! Where the timeline's key-frame marks sit: at their steps, nudged apart just enough that two
//! marks of nearby steps never lie over each other (each still seeks to its own step).

/// The least distance, in CSS pixels, between two marks' centres: a 12 px diamond turned 45° is
/// 17 px across.
pub const MARK_GAP: f64 = 18.0;

/// Each mark's horizontal offset in pixels from its exact place (`xs`, ascending, in a track of
/// `width` pixels), so that neighbours are at least `gap` apart and as close to their places as
/// can be: marks that would crowd form a group spread evenly around the group's middle, kept
/// inside the track. With no width known yet (0) nothing moves.
pub fn nudges(xs: &[f64], width: f64, gap: f64) -> Vec<f64> {
    if width <= 0.0 || xs.len() < 2 {
        return vec![0.0; xs.len()];
    }
    let gap = gap.min(width / (xs.len() - 1) as f64);
    // Groups as (first index, count, left edge of the group's first mark).
    let mut groups: Vec<(usize, usize, f64)> = Vec::new();
    for (i, &x) in xs.iter().enumerate() {
        let mut g = (i, 1, x);
        while let Some(&(start, n, left)) = groups.last() {
            if left + n as f64 * gap <= g.2 {
                break;
            }
            groups.pop();
            g = (start, n + g.1, 0.0);
            g.2 = placed(&xs[start..start + g.1], width, gap);
        }
        groups.push(g);
    }
    let mut out = vec![0.0; xs.len()];
    for (start, n, left) in groups {
        for k in 0..n {
            out[start + k] = left + k as f64 * gap - xs[start + k];
        }
    }
    out
}

/// The left edge of a group of marks spread `gap` apart around its members' mean, in the track.
fn placed(xs: &[f64], width: f64, gap: f64) -> f64 {
    let span = (xs.len() - 1) as f64 * gap;
    let mean = xs.iter().sum::<f64>() / xs.len() as f64;
    (mean - span / 2.0).clamp(0.0, (width - span).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn placed_at(xs: &[f64], width: f64) -> Vec<f64> {
        nudges(xs, width, MARK_GAP)
            .iter()
            .zip(xs)
            .map(|(d, x)| x + d)
            .collect()
    }

    #[test]
    fn marks_far_apart_stay_where_their_steps_are() {
        assert_eq!(nudges(&[10.0, 100.0, 200.0], 300.0, MARK_GAP), vec![0.0; 3]);
    }

    #[test]
    fn two_adjacent_key_frames_are_spread_around_their_middle() {
        assert_eq!(placed_at(&[100.0, 104.0], 300.0), vec![93.0, 111.0]);
    }

    #[test]
    fn a_crowd_at_the_end_of_the_track_stays_inside_it() {
        let at = placed_at(&[295.0, 298.0, 300.0], 300.0);
        assert_eq!(at, vec![264.0, 282.0, 300.0]);
    }

    #[test]
    fn groups_that_meet_after_spreading_merge_and_keep_their_order() {
        let xs = [50.0, 52.0, 70.0, 72.0, 200.0];
        let at = placed_at(&xs, 300.0);
        for w in at.windows(2) {
            assert!(w[1] - w[0] >= MARK_GAP - 1e-9, "{at:?}");
        }
        assert_eq!(at[4], 200.0);
        let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
        assert!((mean(&at[..4]) - mean(&xs[..4])).abs() < 1e-9, "{at:?}");
    }

    #[test]
    fn more_marks_than_fit_share_the_track_evenly() {
        let at = placed_at(&[0.0, 1.0, 2.0, 3.0, 4.0], 40.0);
        assert_eq!(at, vec![0.0, 10.0, 20.0, 30.0, 40.0]);
    }

    #[test]
    fn nothing_moves_before_the_track_is_measured() {
        assert_eq!(nudges(&[0.0, 0.0], 0.0, MARK_GAP), vec![0.0, 0.0]);
    }
}
