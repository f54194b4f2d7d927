//! The requirements matrix as a plain-text table (the command line's `lockstep matrix`).

use super::matrix::{Row, Waits, PROBES};

/// A plain-text table (the CLI's output).
pub fn render(rows: &[Row]) -> String {
    let mut out = format!("{:<13}", "recipe");
    for p in PROBES {
        out.push_str(&format!("{:<14}", p.name()));
    }
    out.push_str("handover    reentrant  waits   token  req/acq  msg/acq\n");
    for r in rows {
        out.push_str(&format!("{:<13}", r.recipe.name()));
        for (_, o, _) in &r.outcomes {
            out.push_str(&format!("{:<14}", o.name()));
        }
        let handover = r
            .crash_handover
            .map_or("never".to_string(), |t| format!("{t} ticks"));
        let waits = match r.waits {
            Waits::Polls => "polls",
            Waits::Blocks => "blocks",
            Waits::Never => "never",
        };
        let yes = |b: bool| if b { "yes" } else { "no" };
        out.push_str(&format!(
            "{handover:<12}{:<11}{waits:<8}{:<7}{:<9}{}\n",
            r.reentrant.map_or("-", yes),
            yes(r.fencing_token),
            tenths(r.requests_x10),
            tenths(r.messages_x10)
        ));
    }
    out
}

/// 123 → "12.3".
pub fn tenths(x: u64) -> String {
    format!("{}.{}", x / 10, x % 10)
}
