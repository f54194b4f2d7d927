//! The layout's tests: text floors per stage size, lanes and wires inside their columns.

use super::*;

#[test]
fn text_floors_per_stage_size() {
    assert!(Type::for_size(1080, 700).small >= 13);
    assert!(Type::for_size(800, 380).small >= 12);
    assert!(Type::for_size(640, 300).small >= 11);
    assert!(Type::for_size(360, 600).small >= 11);
}

#[test]
fn lanes_fit_the_stage_and_wires_run_between_the_columns() {
    for (w, h, n) in [
        (1080, 720, 6),
        (800, 380, 3),
        (360, 560, 10),
        (1080, 720, 200),
        (640, 290, 6),
    ] {
        let g = Geometry::new(w, h, n, 8, true);
        assert!(
            g.lanes.iter().all(|y| *y > 0.0 && *y < h as f32),
            "{w}x{h} {n}"
        );
        assert!(g.clients.right() < g.service.x);
        assert!(
            g.lanes.iter().all(|y| *y < g.service.bottom()),
            "every wire ends on the service: {w}x{h} {n}"
        );
        assert!(g.service.right() <= w as f32);
        assert!(g.resource.unwrap().bottom() <= h as f32 + 0.5, "{w}x{h}");
        let (x0, _) = g.on_wire(0, 0.0);
        let (x1, _) = g.on_wire(0, 1.0);
        assert!(x0 < x1);
        assert!(g.ledger_lines() >= 1, "{w}x{h}");
    }
}

#[test]
fn within_keeps_a_value_in_its_bounds_and_never_panics_when_they_cross() {
    assert_eq!(within(5.0, 0.0, 10.0), 5.0);
    assert_eq!(within(-1.0, 0.0, 10.0), 0.0);
    assert_eq!(within(11.0, 0.0, 10.0), 10.0);
    assert_eq!(
        within(5.0, 8.0, 4.0),
        8.0,
        "crossed bounds: the low one wins"
    );
    assert_eq!(within(f32::NAN, 0.0, 10.0), 10.0, "NaN is no panic either");
}
