//! The course chapter "The requirements matrix" (matrix).

use super::super::{Body, Chapter};

pub const CHAPTER: Chapter = Chapter {
    id: "matrix",
    title: ["The requirements matrix", "需求矩阵"],
    intro: [
        "Every recipe against every fault, computed from runs: which stay safe, which are saved by fencing, which break, which get stuck. Each cell opens the run it came from.",
        "每种锁方案对每种故障，都由实际运行计算得出：哪些保持安全、哪些靠防护令牌兜底、哪些出错、哪些卡死。每个格子都能打开它所来自的那次运行。",
    ],
    takeaway: [
        "No recipe survives every fault on its own; fencing and sessions that end are what the safe columns have in common.",
        "没有哪种方案能独自扛住所有故障；安全的那几列的共同点是防护令牌和会结束的会话。",
    ],
    body: Body::Matrix,
};
