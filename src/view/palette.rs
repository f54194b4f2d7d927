//! Client colours: twelve that stay apart for the common colour-vision deficiencies (Okabe–Ito
//! and Paul Tol's muted set), each with the text colour that reads on it. Every client is also
//! named (C1, C2, …) wherever its colour appears, so colour is never the only cue. Grey is kept
//! for "nobody" (persistent nodes, dead clients) and red for violations.

/// (fill, text on it).
pub const CLIENT: [(&str, &str); 12] = [
    ("#E69F00", "#000"),
    ("#56B4E9", "#000"),
    ("#009E73", "#000"),
    ("#D55E00", "#000"),
    ("#0072B2", "#fff"),
    ("#CC79A7", "#000"),
    ("#332288", "#fff"),
    ("#DDCC77", "#000"),
    ("#117733", "#fff"),
    ("#88CCEE", "#000"),
    ("#882255", "#fff"),
    ("#44AA99", "#000"),
];

pub const NOBODY: &str = "#9aa0a6";
pub const VIOLATION: &str = "#c62828";
pub const OK: &str = "#2e7d32";
pub const INK: &str = "#1d2330";
pub const MUTED: &str = "#5f6673";

pub fn client_colour(id: usize) -> &'static str {
    CLIENT[id % CLIENT.len()].0
}

pub fn client_text(id: usize) -> &'static str {
    CLIENT[id % CLIENT.len()].1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_distinct_colours() {
        let mut c: Vec<&str> = CLIENT.iter().map(|c| c.0).collect();
        crate::sort::all(&mut c);
        c.dedup();
        assert_eq!(c.len(), 12);
        assert!(!c.contains(&NOBODY) && !c.contains(&VIOLATION));
    }
}
