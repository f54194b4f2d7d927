//! Questions generated from a chapter's run: each is posed at a key frame and answered by a
//! later one, so its right answer is what the simulation goes on to do; the wrong options are
//! drawn from the same state (other counts, other nodes, the other verdict).

use super::{Ask, Body, Chapter};
use crate::sim::moments::{Kind, Moment};
use crate::sim::{Lang, Simulation};

/// A multiple-choice question.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub ask: Ask,
    /// Posed at this step; answered by the step `reveal`.
    pub at: u64,
    pub reveal: u64,
    pub prompt: [String; 2],
    pub options: Vec<[String; 2]>,
    pub answer: usize,
}

impl Question {
    pub fn prompt(&self, lang: Lang) -> &str {
        &self.prompt[usize::from(lang == Lang::Zh)]
    }
    pub fn option(&self, i: usize, lang: Lang) -> &str {
        self.options
            .get(i)
            .map_or("", |o| o[usize::from(lang == Lang::Zh)].as_str())
    }
}

fn name(c: Option<usize>) -> String {
    c.map(|c| format!("C{}", c + 1)).unwrap_or_default()
}

fn both(s: String) -> [String; 2] {
    [s.clone(), s]
}

/// Options in a stable order that does not give the answer away (rotated by the step).
fn shuffle(mut options: Vec<[String; 2]>, answer: usize, salt: u64) -> (Vec<[String; 2]>, usize) {
    let n = options.len().max(1);
    let r = (salt as usize).wrapping_mul(7) % n;
    options.rotate_left(r);
    (options, (answer + n - r) % n)
}

/// Numbers around `right` (distinct, from 0 to `max`: never more than the run could show),
/// the right one first.
fn counts(right: i64, also: &[i64], max: i64) -> Vec<[String; 2]> {
    let mut v = vec![right];
    for x in also
        .iter()
        .copied()
        .chain([right + 1, right - 1, right + 2, right - 2])
    {
        if (0..=max).contains(&x) && !v.contains(&x) && v.len() < 4 {
            v.push(x);
        }
    }
    v.into_iter().map(|x| both(x.to_string())).collect()
}

fn yes_no(right: bool) -> Vec<[String; 2]> {
    let (y, n) = (
        ["Yes".to_string(), "会".to_string()],
        ["No".to_string(), "不会".to_string()],
    );
    if right {
        vec![y, n]
    } else {
        vec![n, y]
    }
}

/// The first key frame after `step` of one of these kinds.
fn next<'a>(moments: &'a [Moment], step: u64, kinds: &[Kind]) -> Option<&'a Moment> {
    moments
        .iter()
        .find(|m| m.step > step && kinds.contains(&m.kind))
}

/// The chapter's questions, in step order.
pub fn questions(ch: &Chapter, sim: &Simulation, moments: &[Moment]) -> Vec<Question> {
    if ch.body() != Body::Run {
        return Vec::new();
    }
    let mut out = Vec::new();
    for stop in &ch.stops {
        let (Some(ask), Some(at)) = (stop.ask, stop.step_in(moments)) else {
            continue;
        };
        if let Some(q) = question(ask, at, sim, moments) {
            out.push(q);
        }
    }
    crate::sort::by_key(&mut out, |q| q.at);
    out
}

fn question(ask: Ask, at: u64, sim: &Simulation, moments: &[Moment]) -> Option<Question> {
    let clients = sim.scenario().clients as i64;
    let (reveal, prompt, options) = match ask {
        Ask::Notified => {
            let m = next(moments, at, &[Kind::Herd, Kind::Handoff])?;
            let who = name(m.client);
            let prompt = [
                format!(
                    "When {} goes, how many clients will be notified?",
                    m.text[0]
                ),
                format!("{} 消失时，会有多少个客户端收到通知？", m.text[1]),
            ];
            let _ = who;
            (m.step, prompt, counts(m.n, &[1, clients - 1], clients - 1))
        }
        Ask::NextWatch => {
            let m = next(moments, at, &[Kind::Rewatch])?;
            let who = name(m.client);
            let mut s = sim.clone();
            s.seek(at);
            let dir: Vec<String> = s
                .world()
                .service
                .entries(s.world().now)
                .into_iter()
                .filter(|e| e.sequence().is_some())
                .map(|e| crate::narrate::short_path(&e.id()))
                .collect();
            let mut opts = vec![both(m.text[0].clone())];
            opts.extend(
                dir.into_iter()
                    .filter(|n| *n != m.text[0])
                    .take(3)
                    .map(both),
            );
            let prompt = [
                format!("Which node will {who} watch now?"),
                format!("{who} 接下来会监视哪个节点？"),
            ];
            (m.step, prompt, opts)
        }
        Ask::WriteAccepted => {
            let m = next(moments, at, &[Kind::Fenced, Kind::LostUpdate])?;
            let who = name(m.client);
            let prompt = [
                format!("{who} writes with its old token. Will the resource accept the write?"),
                format!("{who} 用它的旧令牌写入。资源会接受这次写入吗？"),
            ];
            (m.step, prompt, yes_no(m.kind == Kind::LostUpdate))
        }
        Ask::Believers => {
            let m = next(moments, at, &[Kind::TwoHolders])?;
            let prompt = [
                "How many clients will soon believe they hold the lock?".to_string(),
                "很快会有几个客户端认为自己持有锁？".to_string(),
            ];
            (m.step, prompt, counts(m.n, &[1, 0], clients))
        }
        Ask::AfterExpiry => {
            let m = next(moments, at, &[Kind::Expiry])?;
            let who = name(m.client);
            let prompt = [
                format!("{who} sends nothing any more. What happens to its node?"),
                format!("{who} 不再发送任何消息。它的节点会怎样？"),
            ];
            let opts = vec![
                [
                    "The server deletes it when the session times out".into(),
                    "会话超时后服务器删除它".into(),
                ],
                [
                    "It stays until someone deletes it".into(),
                    "它会一直留着，直到有人删除".into(),
                ],
                [
                    "The server deletes it at once".into(),
                    "服务器立刻删除它".into(),
                ],
            ];
            (m.step, prompt, opts)
        }
        Ask::EverAcquires => {
            let m = next(moments, at, &[Kind::Stuck])?;
            let who = name(m.client);
            let prompt = [
                format!("Will {who} ever get the lock?"),
                format!("{who} 最终能拿到锁吗？"),
            ];
            (m.step, prompt, yes_no(false))
        }
        Ask::Duplicate => {
            let m = next(moments, at, &[Kind::LostUpdate])?;
            let prompt = [
                "Will some ID be handed out twice?".to_string(),
                "会有某个 ID 被分配两次吗？".to_string(),
            ];
            (m.step, prompt, yes_no(true))
        }
        Ask::NextSequence => return next_sequence(at, sim),
        Ask::Read => return read(at, moments),
        Ask::Survives => {
            let m = next(moments, at, &[Kind::Elected])?;
            let holder = name(m.client);
            let other = name(Some(usize::from(m.client == Some(0))));
            let prompt = [
                "The leader has crashed. Once the others have elected a new one, who holds the lock?".to_string(),
                "领导者崩溃了。其余服务器选出新领导者之后，谁持有锁？".to_string(),
            ];
            let mut opts = vec![
                [format!("{holder}, as before"), format!("仍然是 {holder}")],
                [
                    format!("{other}: the lock was lost"),
                    format!("{other}：锁丢了"),
                ],
                [
                    format!("Both {holder} and {other}"),
                    format!("{holder} 和 {other} 都持有"),
                ],
            ];
            if m.client.is_none() {
                opts.swap(0, 1);
            }
            (m.step, prompt, opts)
        }
    };
    let (options, answer) = shuffle(options, 0, at);
    Some(Question {
        ask,
        at,
        reveal,
        prompt,
        options,
        answer,
    })
}

/// What an observer's next read of `/lock` will see: what its server has applied, which may
/// be behind the leader (the wrong options: the other answer, and the common belief that a
/// server refuses to answer while it is behind). Observers run in the full bundle only.
fn read(at: u64, moments: &[Moment]) -> Option<Question> {
    if !crate::FULL {
        return None;
    }
    let m = next(moments, at, &[Kind::StaleRead, Kind::FreshRead])?;
    let (c, server) = (name(m.client), &m.text[0]);
    let prompt = match m.m {
        1 => [
            format!("{c} sends sync, then reads /lock on {server}. What will the read see?"),
            format!("{c} 先发 sync，再在 {server} 上读取 /lock。它会读到什么？"),
        ],
        _ => [
            format!("{c} reads /lock on {server}. What will the read see?"),
            format!("{c} 在 {server} 上读取 /lock。它会读到什么？"),
        ],
    };
    let held = [
        "/lock exists: the lock is held".to_string(),
        "/lock 存在：锁被持有".to_string(),
    ];
    let free = [
        "No /lock: the lock looks free".to_string(),
        "没有 /lock：锁看起来空闲".to_string(),
    ];
    let refused = [
        format!("No answer: {server} refuses reads while it is behind"),
        format!("没有应答：{server} 落后时拒绝读请求"),
    ];
    let options = match m.n {
        1 => vec![held, free, refused],
        _ => vec![free, held, refused],
    };
    let (options, answer) = shuffle(options, 0, at);
    Some(Question {
        ask: Ask::Read,
        at,
        reveal: m.step,
        prompt,
        options,
        answer,
    })
}

/// The sequence number of the next sequential node created after `at`.
fn next_sequence(at: u64, sim: &Simulation) -> Option<Question> {
    let r = sim
        .records()
        .iter()
        .find(|r| r.index > at && r.created.iter().any(|id| seq(id).is_some()))?;
    let id = r.created.iter().find(|id| seq(id).is_some())?;
    let n: i64 = seq(id)?.parse().ok()?;
    let who = name(r.narration.client);
    let prompt = [
        format!("What sequence number will the next lock node get ({who}'s)?"),
        format!("下一个锁节点（{who} 的）会得到哪个序号？"),
    ];
    let opts: Vec<[String; 2]> = counts(n, &[n + 3], i64::MAX)
        .into_iter()
        .map(|o| both(format!("{:010}", o[0].parse::<i64>().unwrap_or(0))))
        .collect();
    let (options, answer) = shuffle(opts, 0, at);
    Some(Question {
        ask: Ask::NextSequence,
        at,
        reveal: r.index,
        prompt,
        options,
        answer,
    })
}

/// A node id's ten-digit sequence suffix.
pub fn seq(id: &str) -> Option<&str> {
    let tail = id.get(id.len().checked_sub(10)?..)?;
    tail.bytes().all(|b| b.is_ascii_digit()).then_some(tail)
}
