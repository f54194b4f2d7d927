//! Transitions: the scene a fraction of the way from one frame's scene to the next — shared
//! items move and fade between their two states, new ones fade in or travel from where they
//! enter (a message leaving, a watch event's pulse), gone ones fade out.

use super::scene::{Enter, Item, Scene};

fn lerp(a: f32, b: f32, u: f32) -> f32 {
    a + (b - a) * u
}

/// The scene `u` of the way (0..=1) from `prev` to `next`: shared items move and fade between
/// their two states, new ones fade in or travel from where they enter, gone ones fade out.
pub fn tween(prev: &Scene, next: &Scene, u: f32) -> Scene {
    let u = u.clamp(0.0, 1.0);
    let before: crate::sorted::SortedMap<&str, &Item> =
        prev.items.iter().map(|i| (i.key.as_str(), i)).collect();
    let mut items: Vec<Item> = Vec::with_capacity(next.items.len());
    for n in &next.items {
        let mut it = n.clone();
        match (before.get(n.key.as_str()), n.enter) {
            (Some(p), _) if !n.transient || matches!(n.enter, Enter::Fade) => {
                let ((x0, y0), (x1, y1)) = (p.shape.point(), n.shape.point());
                it.shape = n.shape.moved_to(lerp(x0, x1, u), lerp(y0, y1, u));
                it.opacity = lerp(p.opacity as f32, n.opacity as f32, u).round() as u8;
            }
            (_, Enter::From(x0, y0)) => {
                let (x1, y1) = n.shape.point();
                it.shape = n.shape.moved_to(lerp(x0, x1, u), lerp(y0, y1, u));
            }
            (_, Enter::Fade) => it.opacity = (n.opacity as f32 * u).round() as u8,
        }
        items.push(it);
    }
    for p in &prev.items {
        if !p.transient && !next.items.iter().any(|n| n.key == p.key) {
            let mut it = p.clone();
            it.opacity = (p.opacity as f32 * (1.0 - u)).round() as u8;
            it.transient = true;
            // Leaving, it is no longer something to reach.
            it.focus = None;
            items.push(it);
        }
    }
    Scene {
        w: next.w,
        h: next.h,
        items,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::scene::Shape;

    fn dot(key: &str, x: f32) -> Item {
        Item::new(
            key,
            Shape::Circle {
                cx: x,
                cy: 10.0,
                r: 4.0,
            },
            "ls-msg",
        )
    }

    #[test]
    fn a_shared_item_moves_between_its_two_places() {
        let a = Scene {
            w: 100,
            h: 20,
            items: vec![dot("m1", 10.0), dot("gone", 50.0)],
        };
        let b = Scene {
            w: 100,
            h: 20,
            items: vec![
                dot("m1", 30.0),
                dot("new", 80.0).enter(Enter::From(0.0, 10.0)),
            ],
        };
        let mid = tween(&a, &b, 0.5);
        let x = |k: &str| {
            mid.items
                .iter()
                .find(|i| i.key == k)
                .map(|i| i.shape.point().0)
                .unwrap()
        };
        assert_eq!(x("m1"), 20.0);
        assert_eq!(x("new"), 40.0);
        assert_eq!(
            mid.items.iter().find(|i| i.key == "gone").unwrap().opacity,
            50
        );
        assert!(tween(&a, &b, 1.0).svg_body().contains(r#"cx="30""#));
    }
}
