//! Every UI label in English and Simplified Chinese.

use crate::sim::Lang;

/// (key, English, Chinese).
const LABELS: &[(&str, &str, &str)] = &[
    ("narration.start", "Press Step (→) to begin. Every step applies exactly one event: a message arrives, a timer fires, or a fault strikes.", "按“单步”（→）开始。每一步只发生一件事：一条消息到达、一个定时器触发，或一个故障发生。"),
    ("phase.done", "done", "已完成"),
    ("status.holds", "holds the lock", "持有锁"),
    ("status.believes", "believes it holds", "以为自己持有锁"),
    ("status.unlocked", "works without a lock", "不加锁直接工作"),
    ("status.watches", "watches", "监视"),
    ("status.sets_watch", "asks to watch", "正在请求监视"),
    ("status.lease", "holds a lease", "持有一个租约"),
    ("status.row_wait", "waits for the row lock of ", "等待行锁，持有者 "),
    ("status.notified", "watch fired: ", "监视已触发："),
    ("state.crashed", "crashed", "已崩溃"),
    ("state.closed", "closed", "已关闭"),
    ("state.paused", "paused", "停顿中"),
    ("state.connected", "connected", "已连接"),
    ("state.connecting", "connecting", "连接中"),
    ("state.disconnected", "disconnected", "连接断开"),
    ("state.expired", "expired", "会话过期"),
    ("ui.tagline", "ZooKeeper distributed locks, step by step.", "ZooKeeper 分布式锁，一步一步看清楚。"),
    ("ui.scenario", "Scenario", "场景"),
    ("ui.recipe", "Recipe", "锁方案"),
    ("ui.clients", "Clients", "客户端数"),
    ("ui.seed", "Seed", "随机种子"),
    ("ui.fencing", "Fencing tokens", "防护令牌"),
    ("ui.servers", "ZooKeeper servers", "ZooKeeper 服务器数"),
    ("ui.apply", "Apply", "应用"),
    ("ui.reset", "Reset", "重置"),
    ("ui.step", "Step", "单步"),
    ("ui.back", "Back", "后退"),
    ("ui.play", "Play", "播放"),
    ("ui.pause", "Pause", "暂停"),
    ("ui.speed", "Speed", "速度"),
    ("ui.first", "First step", "第一步"),
    ("ui.last", "Last step", "最后一步"),
    ("ui.scrubber", "Position in the history", "历史位置"),
    ("ui.share", "Share", "分享"),
    ("ui.embed", "Embed", "嵌入"),
    ("ui.export_svg", "Export SVG", "导出 SVG"),
    ("ui.export_anim", "Export animation (GIF)…", "导出动画（GIF）…"),
    ("ui.export_json", "Export run", "导出运行"),
    ("lesson.own", "Lesson", "课程"),
    ("ui.lesson_editor", "Write a lesson…", "编写课程…"),
    ("ui.recipe_editor", "Write a lock recipe…", "编写锁的实现…"),
    ("ui.import", "Import run", "导入运行"),
    ("ui.help", "Help", "帮助"),
    ("ui.close", "Close", "关闭"),
    ("ui.copied", "Copied to the clipboard.", "已复制到剪贴板。"),
    ("ui.copy_manual", "Copy this link:", "请复制此链接："),
    ("ui.embed_hint", "Paste this into your page:", "将以下代码粘贴到你的页面："),
    ("ui.embed_cors", "The sandbox lets the figure run its scripts and open itself in a new window (allow-popups); the server hosting Lockstep must send Access-Control-Allow-Origin: * for its .js, .wasm and .css files. The figure follows the page's language; add lang=en or lang=zh to the address to fix it.", "sandbox 允许图示运行脚本，并在新窗口中打开自己（allow-popups）；托管 Lockstep 的服务器必须为 .js、.wasm 和 .css 文件发送 Access-Control-Allow-Origin: * 响应头。图示使用当前页面的语言；在地址中加上 lang=en 或 lang=zh 可以固定语言。"),
    ("ui.embed_fluid", "Fits its column", "自适应宽度"),
    ("ui.embed_fixed", "800 × 500", "800 × 500"),
    ("ui.embed_player", "<lockstep-player>", "<lockstep-player>"),
    ("ui.copy", "Copy", "复制"),
    ("ui.more", "More", "更多"),
    ("ui.stage", "Stage", "舞台"),
    ("ui.panels", "Panels", "面板"),
    ("ui.playback", "Playback", "播放控制"),
    ("ui.show_pings", "Heartbeats", "心跳"),
    ("ui.pings_hint", "Step and Play stop at pings and keep-alives too", "单步和播放也停在心跳和续期上"),
    ("ui.custom", "Custom run", "自定义运行"),
    ("ui.key_frames", "Key frames", "关键帧"),
    ("ui.key_frame_at", "A key frame at step {n}", "第 {n} 步的关键帧"),
    ("ui.story_veiled", "Predict first: the lesson and its key frames tell what happens next. They show again once the run has answered the course's question.", "先预测：课程说明和关键帧会透露接下来发生什么。等运行揭晓课程问题的答案后，它们会再显示。"),
    ("ui.twin", "The same crash on a Redis primary and its replica, side by side →", "同样的崩溃发生在 Redis 主节点和副本上，并排对比 →"),
    ("ui.legend", "What the shapes mean", "图形含义"),
    ("ui.client_hint", "Click a client on the stage for its actions and faults; click an entry or a message to see it in full.", "点击舞台上的客户端可执行操作和注入故障；点击条目或消息可查看完整内容。"),
    ("tab.lesson", "Lesson", "场景说明"),
    ("tab.settings", "Settings", "设置"),
    ("tab.course", "Course", "教程"),
    ("learn.open", "Learn", "学习"),
    ("learn.predict", "Predict, then step on to see.", "先预测，再单步看结果。"),
    ("learn.chosen", "Your prediction:", "你的预测："),
    ("learn.see", "— step on to see what happens.", "——单步看会发生什么。"),
    ("learn.right", "Right: this step shows", "答对了：这一步显示"),
    ("learn.wrong", "Not quite: this step shows", "不对：这一步显示"),
    ("learn.shown", "This step shows the answer:", "这一步揭晓答案："),
    ("learn.first", "Answer the question first: Step waits for your prediction.", "请先回答问题：单步会等你做出预测。"),
    ("learn.takeaway", "Takeaway", "要点"),
    ("learn.next", "Next chapter", "下一章"),
    ("learn.prev", "Previous chapter", "上一章"),
    ("learn.leave", "Leave the course", "退出教程"),
    ("learn.chapters", "Chapters", "章节"),
    ("learn.matrix", "Open the requirements matrix", "打开需求矩阵"),
    ("learn.elsewhere", "A course of 19 chapters leads from the unique-ID problem to fencing tokens, consensus and a lock of your own: at each key frame you predict what happens next, then step on and see it.", "一门共 19 章的课程，从唯一 ID 问题讲到防护令牌、共识，最后写一把你自己的锁：在每个关键帧你先预测接下来会发生什么，再单步看结果。"),
    ("hunt.find", "Find the bug", "找出错误"),
    ("hunt.task", "Task", "任务"),
    ("hunt.stop", "Stop", "停止"),
    ("hunt.open", "Open it at the failing step", "在出错的那一步打开"),
    ("hunt.clients", "clients", "个客户端"),
    ("legend.ring", "session time left at the service", "服务端剩余的会话时间"),
    ("legend.ring_ttl", "lease or TTL left at the service", "服务端剩余的租约或 TTL"),
    ("legend.request", "request on its way", "发送中的请求"),
    ("legend.reply", "reply on its way", "返回中的应答"),
    ("legend.event", "watch event", "监视事件"),
    ("ui.open_full", "Open in Lockstep", "在 Lockstep 中打开"),
    ("ui.lang", "中文", "English"),
    ("ui.hide_pings", "Hide pings in the log", "日志中隐藏心跳"),
    ("ui.step_of", "step", "第"),
    ("ui.computing_to", "Computing the run up to the step asked for", "正在计算到所要求的那一步"),
    ("ui.computing_ahead", "Computing ahead", "正在向后计算"),
    ("ui.time", "time", "时间"),
    ("ui.error", "Could not use that input", "无法使用该输入"),
    ("ui.dismiss", "Dismiss", "关闭提示"),
    ("ui.pause_ticks", "ticks", "时钟单位"),
    ("ui.latency", "Network latency", "网络延迟"),
    ("ui.set", "Set", "设置"),
    ("res.ids", "Last ID issued", "最近分配的 ID"),
    ("res.duplicate", "duplicate ID", "重复 ID"),
    ("panel.tree", "Znode tree", "Znode 树"),
    ("panel.clients", "Clients", "客户端"),
    ("panel.narration", "What just happened", "刚刚发生了什么"),
    ("panel.log", "Step log", "步骤日志"),
    ("panel.sequence", "Sequence diagram", "时序图"),
    ("panel.resource", "Protected resource", "受保护资源"),
    ("panel.monitors", "Safety monitors", "安全监视"),
    ("panel.metrics", "Metrics", "指标"),
    ("panel.lesson", "Lesson", "要点"),
    ("act.acquire", "Acquire", "获取"),
    ("act.release", "Release", "释放"),
    ("act.crash", "Crash", "崩溃"),
    ("act.close", "Close session", "关闭会话"),
    ("act.pause", "Pause", "停顿"),
    ("act.partition", "Partition", "隔离网络"),
    ("act.heal", "Heal", "恢复网络"),
    ("act.crash_server", "Crash this server", "让这台服务器崩溃"),
    ("act.restart_disk", "Restart from disk", "重启（从磁盘恢复）"),
    ("act.restart_empty", "Restart empty", "重启（数据为空）"),
    ("act.clock_forward", "Clock jumps +{n} ms", "时钟向前跳 {n} 毫秒"),
    ("act.clock_back", "Clock jumps −{n} ms", "时钟向后跳 {n} 毫秒"),
    ("act.split", "Split it off", "把它分区隔离"),
    ("act.heal_split", "Heal the split", "恢复网络分区"),
    ("act.expire", "Expire session", "使会话过期"),
    ("act.drop", "Drop next reply", "丢弃下一个应答"),
    ("mon.not_yet", "not yet:", "尚未发生："),
    ("mon.belief", "Two clients believe they hold the lock", "两个客户端都认为自己持有锁"),
    ("mon.ownership", "Mutual exclusion broken: the lock service itself shows two holders", "互斥被破坏：锁服务本身显示有两个持锁者"),
    ("mon.lost_update", "The resource lost an update (or issued a duplicate ID)", "资源丢失了一次更新（或分配了重复 ID）"),
    ("mon.stuck", "A client waits, with no progress for longer than all the run's timers together", "有客户端在等待，且比本次运行所有计时器加起来更久都没有任何进展"),
    ("mon.ok", "All safety checks pass so far.", "目前所有安全检查均通过。"),
    ("mon.jump", "Jump to step", "跳到第几步"),
    ("metric.requests", "Requests", "请求数"),
    ("metric.notifications", "Notifications", "通知数"),
    ("metric.herd", "Wake-ups per release", "每次释放唤醒数"),
    ("metric.waits", "Recent waits (ticks)", "最近等待时间（时钟单位）"),
    ("metric.zxid", "Last zxid", "最新 zxid"),
    ("res.value", "Value", "当前值"),
    ("res.token", "Highest token seen", "见过的最大令牌"),
    ("res.fencing_on", "Fencing on: writes with a lower token are rejected.", "已启用防护：令牌更小的写入会被拒绝。"),
    ("res.fencing_off", "Fencing off: every write is accepted.", "未启用防护：所有写入都会被接受。"),
    ("res.accepted", "accepted", "已接受"),
    ("res.rejected", "rejected", "已拒绝"),
    ("res.lost", "lost update", "丢失更新"),
    ("legend.persistent", "persistent", "持久节点"),
    ("legend.ephemeral", "ephemeral (owner's colour)", "临时节点（所有者颜色）"),
    ("legend.sequential", "sequential", "顺序节点"),
    ("legend.container", "container", "容器节点"),
    ("legend.watch", "watch", "监视"),
    ("tree.empty", "No znodes yet.", "还没有 znode。"),
    ("client.node", "node", "节点"),
    ("client.session", "session", "会话"),
    ("client.expires", "expires in", "剩余"),
    ("client.count", "held ×", "持有 ×"),
    ("client.token", "token", "令牌"),
    ("ui.matrix", "Requirements matrix", "需求矩阵"),
    ("ui.compare", "Compare services", "对比锁服务"),
    ("act.failover", "Failover", "故障切换"),
    ("act.revoke", "Revoke lease", "撤销租约"),
    ("act.cancel", "Cancel waiting", "取消等待"),
    ("ui.gone", "no longer exists", "已不存在"),
    ("ui.delivered", "This message has been delivered.", "这条消息已经送达。"),
    ("help.title", "Keyboard shortcuts", "键盘快捷键"),
    ("help.step", "→  step forward", "→  前进一步"),
    ("help.back", "←  step back", "←  后退一步"),
    ("help.play", "Space  play / pause", "空格  播放 / 暂停"),
    ("help.home", "Home / End  first / last step", "Home / End  第一步 / 最后一步"),
    ("help.help", "?  this help", "?  显示帮助"),
    ("a11y.step", "Step {n}.", "第 {n} 步。"),
    ("help.stage", "Tab to the stage, then ↑ / ↓  walk its clients, servers, entries and messages", "Tab 进入舞台，然后 ↑ / ↓  依次走过客户端、服务器、节点和消息"),
    ("help.open", "Enter / Space  open what is focused (Esc closes it)", "Enter / 空格  打开当前选中的对象（Esc 关闭）"),
    ("help.client_keys", "On a client: c crash · p pause · l cut / heal its link · x end its session · a acquire · u release", "在客户端上：c 崩溃 · p 停顿 · l 断开 / 恢复网络 · x 结束会话 · a 加锁 · u 释放"),
    ("help.server_keys", "On a server: c crash · r restart from its disk · p pause", "在服务器上：c 崩溃 · r 从磁盘重启 · p 停顿"),
];

/// Labels only the full bundle shows (compare mode, the requirements matrix).
#[cfg(feature = "services")]
const SVC_LABELS: &[(&str, &str, &str)] = &[
    ("ui.computing_matrix", "Computing the requirements matrix (a probe run per cell)…", "正在计算需求矩阵（每个单元格一次探测运行）…"),
    ("ui.computing_compare", "Computing the compared runs…", "正在计算对比的各个运行…"),
    ("ui.compare_hint", "The same scenario — clients, timings, faults, seed — against each recipe, in lockstep by time. Faults below hit every column at once.", "同一个场景（客户端、时序、故障、随机种子）分别用每种锁方案运行，按时间同步前进。下面的故障会同时作用于每一列。"),
    ("ui.column", "Column", "列"),
    ("ui.none", "(none)", "（无）"),
    ("ui.failover", "Failover", "故障切换"),
    ("ui.matrix_hint", "Computed now from runs: each recipe runs the same probes (3 clients, C1 holds first, the fault hits C1 the tick after it got the lock; pauses and cuts last 3000 ticks, longer than any lease; a clock jump or an empty restart strikes a majority of the servers holding the lock). “n/a”: a fault this service does not suffer (it logs every write before answering); “not modelled”: one it could suffer that Lockstep does not model for it. Messages per acquisition leave out heartbeats. Click a cell to open its run at its verdict.", "现在由实际运行计算得出：每种锁方案运行相同的探测场景（3 个客户端，C1 先持锁，故障在 C1 拿到锁后的下一个时钟单位作用于它；停顿和断网持续 3000 个时钟单位，长于任何租约；时钟跳变或空着重启作用于持有锁的多数服务器）。“不适用”：这个服务不会遇到的故障（它在应答之前把每次写入记入日志）；“未建模”：它可能遇到、但 Lockstep 没有为它建模的故障。每次获取的消息数不计心跳。点击单元格，在得出结论的那一步打开对应的运行。"),
    ("ui.compute", "Compute", "计算"),
    ("act.read", "Read /lock", "读取 /lock"),
    ("act.sync_read", "sync, then read /lock", "先 sync 再读 /lock"),
    ("act.pause_links", "Stall its links", "让它的链路停滞"),
    ("anim.double", "2× size (sharper)", "2 倍尺寸（更清晰）"),
    ("anim.pings", "Keep heartbeat steps", "保留心跳步骤"),
    ("anim.credit", "Credit line with the link", "附上带链接的署名"),
    ("anim.title", "Export an animation", "导出动画"),
    ("anim.hint", "For places that take images but not iframes: the stage from one step to another, moving as it does here, with the captions burnt in.", "用于只能放图片、不能嵌入 iframe 的地方：舞台从某一步到另一步的变化，动作和这里一样，字幕直接画在画面里。"),
    ("anim.from", "From step", "起始步"),
    ("anim.to", "to step", "结束步"),
    ("anim.size", "Size", "尺寸"),
    ("anim.format", "Format", "格式"),
    ("anim.make", "Make", "生成"),
    ("anim.cancel", "Cancel", "取消"),
    ("anim.save", "Save", "保存"),
    ("anim.preview", "The animation", "动画预览"),
    ("anim.progress", "Drawing still {n} of {m}…", "正在绘制第 {n} 帧，共 {m} 帧…"),
    ("anim.stills", "{n} stills", "{n} 帧"),
    ("anim.range", "Choose steps from 0 to {len}, the first no later than the last, at most {max} steps.", "请选择 0 到 {len} 之间的步，起始步不能晚于结束步，最多 {max} 步。"),
    ("anim.no_canvas", "This browser could not draw or record the animation.", "这个浏览器无法绘制或录制这段动画。"),
    ("mx.recipe", "Recipe", "锁方案"),
    ("mx.service", "Service", "服务"),
    ("mx.no_fault", "No fault", "无故障"),
    ("mx.crash", "Holder crash", "持锁者崩溃"),
    ("mx.pause", "Long pause", "长时间停顿"),
    ("mx.partition", "Partition", "网络隔离"),
    ("mx.lost_reply", "Lost reply", "应答丢失"),
    ("mx.failover", "Failover", "故障切换"),
    ("mx.leader_crash", "Leader / primary dies after the grant", "授予锁后领导者/主节点宕机"),
    ("mx.minority", "Holder's server cut off", "持锁者所连的服务器被隔离"),
    ("mx.clock_jump", "Clocks of a majority jump", "多数服务器时钟跳变"),
    ("mx.restart_empty", "A majority restarts empty", "多数服务器空着重启"),
    ("mx.handover", "Freed after crash", "崩溃后释放"),
    ("mx.reentrant", "Reentrant", "可重入"),
    ("mx.waits", "Waiting", "等待方式"),
    ("mx.token", "Fencing token", "防护令牌"),
    ("mx.req", "Requests / acquisition (10 clients)", "每次获取的请求数（10 个客户端）"),
    ("mx.msg", "Messages / acquisition (10 clients)", "每次获取的消息数（10 个客户端）"),
    ("mx.safe", "safe", "安全"),
    ("mx.fenced", "fenced", "靠令牌兜底"),
    ("mx.unsafe", "UNSAFE", "不安全"),
    ("mx.stuck", "stuck", "卡死"),
    ("mx.not_modelled", "not modelled", "未建模"),
    ("mx.not_modelled_why", "This service could suffer it, but Lockstep does not model it for this service: the cell claims nothing", "这个服务可能遇到这种故障，但 Lockstep 没有为它建模：此格不作任何断言"),
    ("mx.not_applicable", "n/a", "不适用"),
    ("mx.not_applicable_why", "Not a fault this service suffers: its servers log every acknowledged write before answering", "这个服务不会遇到这种故障：它的服务器在应答之前把每次确认的写入都记入日志"),
    ("mx.never", "never", "永不"),
    ("mx.ticks", "ticks", "时钟单位"),
    ("mx.yes", "yes", "是"),
    ("mx.no", "no", "否"),
    ("mx.polls", "polls", "轮询"),
    ("mx.no_wait", "never waits (no lock)", "从不等待（没有锁）"),
    ("mx.no_lock", "— (no lock)", "—（没有锁）"),
    ("mx.blocks", "blocks / watches", "阻塞 / 监视"),
];
#[cfg(not(feature = "services"))]
const SVC_LABELS: &[(&str, &str, &str)] = &[];

/// The label for `key` in `lang` (the key itself if unknown, so a gap is visible, not fatal).
pub fn t<'a>(key: &'a str, lang: Lang) -> &'a str {
    LABELS
        .iter()
        .chain(SVC_LABELS)
        .find(|(k, _, _)| *k == key)
        .map_or(key, |(_, en, zh)| if lang == Lang::Zh { zh } else { en })
}

/// All keys (for tests and tooling).
pub fn keys() -> impl Iterator<Item = &'static str> {
    LABELS.iter().chain(SVC_LABELS).map(|(k, _, _)| *k)
}

/// The language to start in: `?lang=` wins, then the browser's language.
pub fn pick(query: Option<&str>, browser: Option<&str>) -> Lang {
    query
        .and_then(Lang::parse)
        .or_else(|| {
            browser
                .filter(|b| b.to_ascii_lowercase().starts_with("zh"))
                .map(|_| Lang::Zh)
        })
        .unwrap_or(Lang::En)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_label_exists_in_both_languages_once() {
        let mut seen = crate::sorted::SortedSet::new();
        for (k, en, zh) in LABELS.iter().chain(SVC_LABELS) {
            assert!(seen.insert(*k), "duplicate key {k}");
            assert!(!en.is_empty() && !zh.is_empty(), "{k}");
        }
        assert_eq!(t("nope", Lang::Zh), "nope");
    }

    #[test]
    fn language_choice() {
        assert_eq!(pick(Some("zh"), Some("en-US")), Lang::Zh);
        assert_eq!(pick(None, Some("zh-CN")), Lang::Zh);
        assert_eq!(pick(Some("klingon"), Some("en")), Lang::En);
        assert_eq!(pick(None, None), Lang::En);
    }
}
