//! Geometry of the stage (clients on the left, the ZooKeeper server with its znode tree on the
//! right, the protected resource below it), shared by the live SVG and the SVG export.

use super::frame::{Frame, MessageDot};

// Whole pixels everywhere: the view never formats a float (smaller wasm, crisper SVG).
pub const WIDTH: i64 = 900;
pub const CLIENT_X: i64 = 16;
pub const CLIENT_W: i64 = 170;
pub const SERVER_X: i64 = 470;
pub const SERVER_W: i64 = 414;
const TOP: i64 = 44;
const ROW_H: i64 = 22;

/// A number with `decimals` digits after the point, without float formatting.
pub fn fixed(v: f64, decimals: u32) -> String {
    let scale = 10i64.pow(decimals);
    let n = (v * scale as f64).round() as i64;
    if decimals == 0 {
        return n.to_string();
    }
    let sign = if n < 0 { "-" } else { "" };
    let (whole, frac) = (n.abs() / scale, n.abs() % scale);
    format!("{sign}{whole}.{frac:0width$}", width = decimals as usize)
}

/// Okabe–Ito colours: distinguishable with the common colour-vision deficiencies.
pub const PALETTE: [&str; 8] = [
    "#E69F00", "#56B4E9", "#009E73", "#D55E00", "#0072B2", "#CC79A7", "#F0E442", "#999999",
];

pub fn client_colour(id: usize) -> &'static str {
    PALETTE[id % PALETTE.len()]
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    pub height: i64,
    pub lane_h: i64,
    pub lanes: Vec<i64>,
    pub rows: Vec<i64>,
    pub resource_y: i64,
}

impl Stage {
    pub fn new(clients: usize, rows: usize) -> Stage {
        let n = clients as i64;
        let lane_h = if clients <= 10 {
            44
        } else {
            (440 / n.max(1)).max(4)
        };
        let lanes: Vec<i64> = (0..n).map(|i| TOP + lane_h * i + lane_h / 2).collect();
        let rows_y: Vec<i64> = (0..rows as i64).map(|j| TOP + 14 + ROW_H * j).collect();
        let resource_y = TOP + 24 + ROW_H * (rows as i64).max(1) + 40;
        let height = (TOP + lane_h * n).max(resource_y + 70) + 16;
        Stage {
            height,
            lane_h,
            lanes,
            rows: rows_y,
            resource_y,
        }
    }

    pub fn lane(&self, client: usize) -> i64 {
        self.lanes.get(client).copied().unwrap_or(TOP)
    }

    /// Where a message dot is: along its client's lane towards the server, or towards the
    /// resource box.
    pub fn dot(&self, m: &MessageDot) -> (i64, i64) {
        let start = (CLIENT_X + CLIENT_W, m.client.map_or(TOP, |c| self.lane(c)));
        let end = if m.to_resource {
            (SERVER_X, self.resource_y + 24)
        } else {
            (SERVER_X, start.1)
        };
        let p = if m.inbound {
            1.0 - m.progress
        } else {
            m.progress
        };
        let lerp = |a: i64, b: i64| a + ((b - a) as f64 * p).round() as i64;
        (lerp(start.0, end.0), lerp(start.1, end.1))
    }

    /// The y of a znode row by path.
    pub fn row_of(&self, frame: &Frame, path: &str) -> Option<i64> {
        frame
            .tree
            .iter()
            .position(|r| r.id == path)
            .and_then(|i| self.rows.get(i).copied())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_fit_and_dots_move_from_client_to_server() {
        let s = Stage::new(200, 5);
        assert!(s.lanes.iter().all(|y| *y < s.height));
        let out = MessageDot {
            id: 0,
            client: Some(3),
            inbound: false,
            to_resource: false,
            progress: 0.0,
            label: String::new(),
            lost: false,
        };
        let back = MessageDot {
            inbound: true,
            ..out.clone()
        };
        assert_eq!(s.dot(&out).0, CLIENT_X + CLIENT_W);
        assert_eq!(s.dot(&back).0, SERVER_X);
        assert_ne!(client_colour(0), client_colour(1));
        assert_eq!(fixed(2.5, 2), "2.50");
        assert_eq!(fixed(0.333, 1), "0.3");
        assert_eq!(fixed(-1.25, 1), "-1.3");
    }
}
