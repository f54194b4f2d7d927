//! Geometry of the stage (clients on the left, the ZooKeeper server with its znode tree on the
//! right, the protected resource below it), shared by the live SVG and the SVG export.

use super::frame::{Frame, MessageDot};

pub const WIDTH: f64 = 900.0;
pub const CLIENT_X: f64 = 16.0;
pub const CLIENT_W: f64 = 170.0;
pub const SERVER_X: f64 = 470.0;
pub const SERVER_W: f64 = 414.0;
const TOP: f64 = 44.0;
const ROW_H: f64 = 22.0;

/// Okabe–Ito colours: distinguishable with the common colour-vision deficiencies.
pub const PALETTE: [&str; 8] = ["#E69F00", "#56B4E9", "#009E73", "#D55E00", "#0072B2", "#CC79A7", "#F0E442", "#999999"];

pub fn client_colour(id: usize) -> &'static str {
    PALETTE[id % PALETTE.len()]
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    pub height: f64,
    pub lane_h: f64,
    pub lanes: Vec<f64>,
    pub rows: Vec<f64>,
    pub resource_y: f64,
}

impl Stage {
    pub fn new(clients: usize, rows: usize) -> Stage {
        let lane_h = if clients <= 10 { 44.0 } else { (440.0 / clients as f64).max(6.0) };
        let lanes: Vec<f64> = (0..clients).map(|i| TOP + lane_h * (i as f64 + 0.5)).collect();
        let rows_y: Vec<f64> = (0..rows).map(|j| TOP + 14.0 + ROW_H * j as f64).collect();
        let tree_bottom = TOP + 24.0 + ROW_H * rows.max(1) as f64;
        let resource_y = tree_bottom + 40.0;
        let height = (TOP + lane_h * clients as f64).max(resource_y + 70.0) + 16.0;
        Stage { height, lane_h, lanes, rows: rows_y, resource_y, }
    }

    pub fn lane(&self, client: usize) -> f64 {
        self.lanes.get(client).copied().unwrap_or(TOP)
    }

    /// Where a message dot is: along its client's lane towards the server, or towards the
    /// resource box.
    pub fn dot(&self, m: &MessageDot) -> (f64, f64) {
        let start = (CLIENT_X + CLIENT_W, m.client.map_or(TOP, |c| self.lane(c)));
        let end = if m.to_resource { (SERVER_X, self.resource_y + 24.0) } else { (SERVER_X, start.1) };
        let p = if m.inbound { 1.0 - m.progress } else { m.progress };
        (start.0 + (end.0 - start.0) * p, start.1 + (end.1 - start.1) * p)
    }

    /// The y of a znode row by path.
    pub fn row_of(&self, frame: &Frame, path: &str) -> Option<f64> {
        frame.tree.iter().position(|r| r.path == path).and_then(|i| self.rows.get(i).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_fit_and_dots_move_from_client_to_server() {
        let s = Stage::new(200, 5);
        assert!(s.lanes.iter().all(|y| *y < s.height));
        let out = MessageDot { id: 0, client: Some(3), inbound: false, to_resource: false, progress: 0.0, label: String::new(), lost: false };
        let back = MessageDot { inbound: true, ..out.clone() };
        assert_eq!(s.dot(&out).0, CLIENT_X + CLIENT_W);
        assert_eq!(s.dot(&back).0, SERVER_X);
        assert_ne!(client_colour(0), client_colour(1));
    }
}
