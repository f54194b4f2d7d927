//! The embed API's plain-Rust half: what a host page may ask of an embedded Lockstep over
//! `postMessage` (`lockstep:seek`, `step`, `play`, `pause`, `load`, `hello`), checked field by
//! field with a bounded message, and the `lockstep:frame` event it answers with. Version 2
//! adds `hello` (the host asks for `ready` again), `ready`'s run length, key frames and
//! language, and the `playing`, `paused` and `ended` events; commands a host sends before the
//! app runs wait in a queue (`boot/embed.js`) and are obeyed in order once it does. `ui` reads the
//! message's fields off the JS object (never walking or serialising the whole object, so a
//! deep or huge message costs nothing) and hands them here.

use crate::view::url::{MAX_AT, MAX_WORK};

/// The prefix every message of this API carries in its `type`.
pub const PREFIX: &str = "lockstep:";
/// The API's version, in `lockstep:ready`.
pub const VERSION: u32 = 2;
/// A `type` longer than this is not one of ours (and is not read further).
pub const MAX_TYPE: usize = 32;
/// `step`'s `by` is at most this many steps either way (each is a step of the page's own
/// Step button: past heartbeats).
pub const MAX_BY: i64 = 1000;
/// `load`'s `query` is at most this long (a share link's query; the page's own links are
/// far shorter).
pub const MAX_QUERY: usize = 64 * 1024;

/// A host page's command.
#[derive(Clone, Debug, PartialEq)]
pub enum HostCommand {
    /// Jump to this step (bounded as a link's `at` is).
    Seek(u64),
    /// This many steps forward (negative: back).
    Step(i64),
    Play,
    Pause,
    /// Open this query string, as a link with it would.
    Load(String),
    /// The host asks for `lockstep:ready` again (it missed the first, or reloaded).
    Hello,
}

/// The fields of a message the API reads, as `ui` found them on the object.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Fields<'a> {
    pub kind: Option<&'a str>,
    pub at: Option<f64>,
    pub by: Option<f64>,
    pub query: Option<&'a str>,
}

/// Why a message was not obeyed: `Ignore` for messages that are not this API's (other
/// scripts on the host page talk over `postMessage` too), `Reject` with the reason for ours
/// that are malformed (the page logs it; the simulation runs on).
#[derive(Clone, Debug, PartialEq)]
pub enum Refusal {
    Ignore,
    Reject(String),
}

/// Reads a host command from a message's fields.
pub fn parse(f: &Fields, clients: u32) -> Result<HostCommand, Refusal> {
    let kind = f.kind.ok_or(Refusal::Ignore)?;
    if kind.len() > MAX_TYPE {
        return Err(Refusal::Ignore);
    }
    let kind = kind.strip_prefix(PREFIX).ok_or(Refusal::Ignore)?;
    let reject = |s: String| Err(Refusal::Reject(format!("{PREFIX}{kind}: {s}")));
    match kind {
        "seek" => match whole(f.at, 0, furthest(clients) as i64) {
            Ok(n) => Ok(HostCommand::Seek(n as u64)),
            Err(e) => reject(format!("`at` {e}")),
        },
        "step" => match whole(f.by.or(Some(1.0)), -MAX_BY, MAX_BY) {
            Ok(n) => Ok(HostCommand::Step(n)),
            Err(e) => reject(format!("`by` {e}")),
        },
        "play" => Ok(HostCommand::Play),
        "hello" => Ok(HostCommand::Hello),
        "pause" => Ok(HostCommand::Pause),
        "load" => match f.query {
            Some(q) if q.len() <= MAX_QUERY => Ok(HostCommand::Load(q.to_string())),
            Some(q) => reject(format!("`query` is {} bytes, over {MAX_QUERY}", q.len())),
            None => reject("`query` must be a string such as \"preset=herd&at=12\"".into()),
        },
        // Events we post ourselves (a host may echo them back) and later versions' commands.
        _ => Err(Refusal::Ignore),
    }
}

/// The furthest step a host may seek to with this many clients (a link's bound).
pub fn furthest(clients: u32) -> u64 {
    MAX_AT.min(MAX_WORK / u64::from(clients.max(1)))
}

/// A whole number in `lo..=hi`, or what is wrong with it.
fn whole(v: Option<f64>, lo: i64, hi: i64) -> Result<i64, String> {
    match v {
        None => Err("must be a number".into()),
        Some(x) if !x.is_finite() || x.fract() != 0.0 => Err("must be a whole number".into()),
        Some(x) if x < lo as f64 || x > hi as f64 => Err(format!("must be in {lo}..={hi}")),
        Some(x) => Ok(x as i64),
    }
}

/// The `lockstep:frame` event's fields: where the embed is, and what its caption says.
#[derive(Clone, Debug, PartialEq)]
pub struct FrameEvent {
    pub at: u64,
    /// Steps computed so far (the run is computed ahead as it is stepped).
    pub steps: u64,
    /// The run's length, once it is known (the run has ended within what is computed).
    pub length: Option<u64>,
    /// The key frame's kind at this step (its id, as in the timeline), if it is one.
    pub key_frame: Option<&'static str>,
    pub caption: String,
}

/// The forms the Embed dialog writes a figure in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Snippet {
    /// An iframe of a fixed size (800×500).
    Fixed,
    /// An iframe as wide as its column, as tall as the figure says it wants to be
    /// (`lockstep:resize`).
    Responsive,
    /// `<lockstep-player>`, the web component (`public/lockstep-player.js`).
    Player,
}

/// The sandbox an embed needs: scripts, and a new window for "Open in Lockstep".
pub const SANDBOX: &str = "allow-scripts allow-popups allow-popups-to-escape-sandbox";

/// The code an author pastes into a page: `page` is the page's address (`…/index.html`),
/// `query` the embed link's query (without `?`).
pub fn snippet(form: Snippet, page: &str, query: &str) -> String {
    let src = format!("{page}?{query}");
    let src = escape(&src);
    match form {
        Snippet::Fixed => format!(
            "<iframe src=\"{src}\" width=\"800\" height=\"500\" style=\"border:0;max-width:100%\"\n        sandbox=\"{SANDBOX}\" title=\"Lockstep\" loading=\"lazy\"></iframe>"
        ),
        Snippet::Responsive => format!(
            "<iframe id=\"lockstep-figure\" src=\"{src}\" style=\"width:100%;height:500px;border:0\"\n        sandbox=\"{SANDBOX}\" title=\"Lockstep\" loading=\"lazy\"></iframe>\n<script>\n  // The figure says how tall it wants to be at its width (lockstep:resize).\n  addEventListener('message', (e) => {{\n    const f = document.getElementById('lockstep-figure');\n    if (e.source === f.contentWindow && e.data && e.data.type === 'lockstep:resize') {{\n      f.style.height = e.data.height + 'px';\n    }}\n  }});\n</script>"
        ),
        Snippet::Player => {
            let dir = page.rsplit_once('/').map_or("", |(d, _)| d);
            let attrs: String = form_urlencoded::parse(query.as_bytes())
                .filter(|(k, _)| k != "embed")
                .map(|(k, v)| format!(" {k}=\"{}\"", escape(&v)))
                .collect();
            let src = escape(&format!("{dir}/"));
            format!(
                "<script type=\"module\" src=\"{src}public/lockstep-player.js\"></script>\n<lockstep-player src=\"{src}\"{attrs}></lockstep-player>"
            )
        }
    }
}

/// Text safe inside an HTML attribute.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('"', "&quot;")
        .replace('<', "&lt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippets_carry_the_link_the_sandbox_and_the_sizing() {
        let (page, q) = (
            "https://x.org/ls/index.html",
            "preset=herd&at=5&embed=1&lang=zh",
        );
        let fixed = snippet(Snippet::Fixed, page, q);
        assert!(fixed.contains(
            "src=\"https://x.org/ls/index.html?preset=herd&amp;at=5&amp;embed=1&amp;lang=zh\""
        ));
        assert!(fixed.contains(SANDBOX) && fixed.contains("height=\"500\""));
        let fluid = snippet(Snippet::Responsive, page, q);
        assert!(fluid.contains("lockstep:resize") && fluid.contains("width:100%"));
        assert!(fluid.lines().count() <= 12, "a short snippet:\n{fluid}");
        let player = snippet(Snippet::Player, page, q);
        assert!(player.contains("src=\"https://x.org/ls/public/lockstep-player.js\""));
        assert!(
            player.contains(" preset=\"herd\" at=\"5\" lang=\"zh\""),
            "{player}"
        );
        assert!(!player.contains("embed="));
        assert!(!snippet(Snippet::Fixed, page, "preset=\"x").contains("=\"x\""));
    }

    fn f<'a>(kind: &'a str) -> Fields<'a> {
        Fields {
            kind: Some(kind),
            ..Fields::default()
        }
    }

    #[test]
    fn seek_takes_a_whole_step_within_a_links_bound() {
        let at = |x: f64| {
            parse(
                &Fields {
                    at: Some(x),
                    ..f("lockstep:seek")
                },
                10,
            )
        };
        assert_eq!(at(12.0), Ok(HostCommand::Seek(12)));
        assert_eq!(at(MAX_AT as f64), Ok(HostCommand::Seek(MAX_AT)));
        for bad in [
            -1.0,
            1.5,
            f64::NAN,
            f64::INFINITY,
            1e300,
            MAX_AT as f64 + 1.0,
        ] {
            assert!(matches!(at(bad), Err(Refusal::Reject(_))), "{bad}");
        }
        // 200 clients: as far as a link may open.
        let big = Fields {
            at: Some(MAX_AT as f64),
            ..f("lockstep:seek")
        };
        assert!(matches!(parse(&big, 200), Err(Refusal::Reject(_))));
        assert_eq!(furthest(200), MAX_WORK / 200);
    }

    #[test]
    fn step_defaults_to_one_and_is_bounded_both_ways() {
        assert_eq!(parse(&f("lockstep:step"), 5), Ok(HostCommand::Step(1)));
        let by = |x| {
            parse(
                &Fields {
                    by: Some(x),
                    ..f("lockstep:step")
                },
                5,
            )
        };
        assert_eq!(by(-3.0), Ok(HostCommand::Step(-3)));
        assert!(matches!(by(1001.0), Err(Refusal::Reject(_))));
        assert!(matches!(by(-1e20), Err(Refusal::Reject(_))));
    }

    #[test]
    fn load_needs_a_bounded_query() {
        let q = |s: &'static str| Fields {
            query: Some(s),
            ..f("lockstep:load")
        };
        assert_eq!(
            parse(&q("preset=herd"), 5),
            Ok(HostCommand::Load("preset=herd".into()))
        );
        assert!(matches!(
            parse(&f("lockstep:load"), 5),
            Err(Refusal::Reject(_))
        ));
        let long = "a".repeat(MAX_QUERY + 1);
        let m = Fields {
            query: Some(&long),
            ..f("lockstep:load")
        };
        assert!(matches!(parse(&m, 5), Err(Refusal::Reject(_))));
    }

    #[test]
    fn other_messages_are_ignored_not_rejected() {
        for kind in [
            "",
            "seek",
            "lockstep:frame",
            "lockstep:ready",
            "other:seek",
            "lockstep:",
        ] {
            assert_eq!(parse(&f(kind), 5), Err(Refusal::Ignore), "{kind}");
        }
        assert_eq!(parse(&Fields::default(), 5), Err(Refusal::Ignore));
        let long = format!("lockstep:{}", "x".repeat(40));
        assert_eq!(parse(&f(&long), 5), Err(Refusal::Ignore));
        assert_eq!(parse(&f("lockstep:play"), 5), Ok(HostCommand::Play));
        assert_eq!(parse(&f("lockstep:pause"), 5), Ok(HostCommand::Pause));
        assert_eq!(parse(&f("lockstep:hello"), 5), Ok(HostCommand::Hello));
    }
}
