// What each page downloads (wasm + JS + CSS named in its HTML, raw and gzip -9, as a static host
// serves it), and each bundle's budget: the ceiling the size test holds today, and the goal the
// phone-network issue sets (lean 400 KB, full 520 KB). Lower a ceiling when you make room.
// The full ceiling rose from 736,000 by the animated export (issue 23: its dialog ~12 KB, the
// stills' drawing and the GIF encoder ~22 KB gzip), which the lean page hands over for.
// Raised once: issue 20's whole-word labels and drawn evidence cost 9.6 KB (lean) and 9.6 KB (full).
// Lowered by one sort for the whole program (src/sort.rs: 18 copies of the standard sort became
// one): lean 521,513 → 498,991, full 771,161 → 745,550. Raised by authors' lessons (issue 23):
// lean +5,644 B (the course as build.rs's static rows, stops, the hand-over of a lesson link or
// file), full +39,526 B (the lesson reader and the editor).
// Raised by the stale read and `sync` (issue 21): full 785,179 → 792,346 B (+7.2 KB: the observer
// recipe, its reads' key frames, the preset, the links' stall, their en/zh text); lean 504,814 → 507,525 B
// (+2.7 KB: the two commands and three phases live in shared enums; the rest of it is kept out of the
// lean build by `crate::FULL`, which cut the lean cost from 7.6 KB). Then the lean build
// dropped what draws several servers (`Builder::several` is false without the feature):
// 507,525 → 502,941 B with the stale-read chapter in; full +1.2 KB for that chapter (793,590 B).
// Replication's narration and the links between servers left the lean build too: 502,224 B.
// Raised by the exhaustive search's fingerprint (issue 21): it hashes every ensemble server's state
// now (it had merged states whose servers differed), and the fixes that found: full 793,590 →
// 795,913 B (+2.3 KB, mostly the derived hashing of the servers' trees and logs); lean 502,245 B.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { DIST } from './harness.mjs';

// Lowered by Leptos's erased view types (`--cfg erase_components` in .cargo/config.toml, issue 22:
// one render path per output type instead of one per closure): lean 502,273 → 468,262 B,
// full 796,018 → 736,618 B.
// Lowered by a clamp that never panics (`view::geometry::within`, issue 22): `f32::clamp`'s panic
// message formatted two floats, which kept `<f32 as Debug>` and the shortest-float algorithms
// (14.6 KB of code) for that message alone: lean 468,262 → 459,135 B, full 736,618 → 727,984 B.
// Then stage truth fixes (a crashed server's keys read "crashed", one zero token is no warning,
// wires fan out to a box and labels of different wires avoid each other, no links between
// Redlock's masters): lean 459,608 B, full 728,764 B.
// Lowered by commands read by hand (`sim/command_de.rs`: serde's derive wrote three visitors per
// variant, 21.7 KB of code): lean 459,608 → 456,717 B, full 728,764 → 725,837 B.
// Lowered by an arc's sine and cosine from a short series (`view::draw`: f32 sin/cos pulled in
// libm's large-argument reduction) and commands written by hand (`sim/command_ser.rs`), with the
// clock buttons out of the lean build: lean 456,717 → 453,440 B, full 725,837 → 722,816 B.
// Raised by key frames that say what is true (the ensemble's minority and resumed session, a
// Redlock holder short of a majority, a replica cut off, a key running out under a waiting
// client: the full bundle's detectors and their en/zh captions) and a picture that keeps still
// (timeline marks nudged apart, the position's widest text reserved, a message label clear of a
// cut wire's word, Redis replies as redis-cli prints them, a zxid token in hex): lean 453,440 →
// 455,194 B (+1.8 KB; the services' detectors are kept out of it by `crate::FULL`), full
// 722,816 → 727,267 B (+4.5 KB). Raised by labels between servers kept off the rows' words
// (`view/stage/peers.rs` over_words): full 727,461 → 727,976 B (+0.5 KB).
// Lowered by ordered maps and sets kept as sorted vectors (`src/sorted/`: `BTreeMap`'s node
// code was compiled again for each of ~50 key and value types): lean 455,288 → 424,345 B,
// full 727,970 → 654,301 B. Raised by step sentences that read Redis's replies as redis-cli
// prints them (`narrate/resp.rs`, full bundle only): full 654,301 → 654,683 B.
// Lowered by a third page (issue 22): the animated export and the lesson editor moved to the
// studio page (studio.html, the `studio` feature), which the other pages hand over to for them,
// and base64url and the allocator became smaller code (`src/b64url.rs`, talc): lean 424,360 →
// 421,376 B, full 654,683 → 603,834 B; the studio page is 651,525 B. It has no goal of its own:
// no reader opens it first (a button hands over to it, and its links lead to full.html).
// Lowered by scenario and run JSON read only on the full page (`view/url/json.rs`: the lean
// page hands `scenario=` links and imported files over): lean 421,376 → 410,768 B; full
// +0.4 KB (603,834 → 604,245 B: `run=`), studio 652,251 B.
// Lowered by `cmds=` and the import's lesson check read with `src/json_read/` instead of serde_json
// (the lean page's last JSON reads): lean 410,768 → 399,112 B, which meets its goal; full and
// studio, which still read scenarios and runs with serde, +4.2 KB (608,475 B and 656,913 B).
// Lowered by scenarios, runs and lessons read with `json_read` (`sim/scenario_json/`,
// `view/learn/lesson/read.rs`) and every JSON the pages write written by `src/json_write.rs`: no
// serde in the lean and full pages: lean 399,065 → 396,279 B, full 608,442 → 579,715 B, studio
// 656,846 → 632,358 B (it keeps serde's writer for the lesson editor).
// Raised by issues 52-56 (the course's checks and chapters, the embed player, the recipe
// language's search faults, the Write-your-own-lock tasks, the ACK counter): full 579,715 →
// 602,313 B; studio 632,358 → 690,968 B, of which the recipe language (parser, compiler,
// interpreter, editor: studio only — the other pages hand a recipe over, `Source::new`) is most.
// Measured before that move: full 620,720 B with the language in it.
// Raised by the stage as a keyboard surface (issue 57: every client, server, entry and message a
// named tab stop, ↑/↓ and Enter and fault letters, focus kept across redraws, the caption's
// spoken step, the help lines in en/zh): lean 389,130 → 395,884 B (+6.8 KB, under its ceiling;
// the `on:` listeners it first had on the `<svg>` cost 2.9 KB more and became the page's one
// keydown listener), full 602,313 → 610,069 B, studio 690,968 → 698,534 B.
// Raised by kazoo's NONE event (issue 51: the library spends its watchers when its connection
// breaks, the card's and the step's words for it in en/zh) and the popover's focus hand-back
// after screen-reader trials (focus back before the dialog goes, a spoken step): lean 395,884 →
// 398,066 B (the lean ceiling rises, still under its 400 KB goal), full 611,930 B, studio
// 700,989 B.
export const BUDGETS = {
  'index.html': { label: 'lean first bundle (index.html)', ceiling: 398_100, goal: 400_000 },
  'full.html': { label: 'full bundle (full.html)', ceiling: 612_000, goal: 520_000 },
  'studio.html': { label: 'studio bundle (studio.html)', ceiling: 701_000, goal: null },
};

export function sizes(page) {
  const html = fs.readFileSync(path.join(DIST, page), 'utf8');
  const files = [...new Set([...html.matchAll(/(?:href|src)="?\.?\/?([\w.-]+\.(?:js|wasm|css))/g)].map((m) => m[1]))];
  let raw = 0; let gz = 0;
  for (const f of files) {
    const b = fs.readFileSync(path.join(DIST, f));
    raw += b.length; gz += zlib.gzipSync(b, { level: 9 }).length;
  }
  return { raw, gz, files };
}
