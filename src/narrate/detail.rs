//! The result part of a sentence, rendered in the reader's language (paths and error names stay
//! as the server spells them).

use serde::{Deserialize, Serialize};

use super::Lang;

/// A result, rendered in the reader's language (paths and error names stay as the server
/// spells them).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Detail {
    None,
    Ok,
    Created {
        path: String,
        zxid: i64,
    },
    Deleted {
        zxid: i64,
    },
    Error(String),
    Children(Vec<String>),
    Exists {
        found: bool,
        watch: bool,
    },
    Data {
        watch: bool,
    },
    Synced,
    Nodes(Vec<String>),
    StillAlive,
    SessionGone,
    Accepted,
    LostUpdate,
    Rejected {
        highest: i64,
    },
    /// The resource's answers: the value read, the value written.
    Value(u64),
    /// A long list of children: the first few (in the server's order) and how many more.
    ChildrenCut(Vec<String>, usize),
    Wrote(u64),
    Text(String),
    /// Words of the narration itself, in English and Chinese.
    Words([String; 2]),
}

impl Detail {
    pub fn text(&self, lang: Lang) -> String {
        let zh = lang == Lang::Zh;
        let pick = |en: &str, z: &str| if zh { z.to_string() } else { en.to_string() };
        match self {
            Detail::None => String::new(),
            Detail::Ok => pick("ok", "成功"),
            Detail::Created { path, zxid } => {
                if zh {
                    format!("创建了 {path}（zxid {zxid}）")
                } else {
                    format!("created {path} (zxid {zxid})")
                }
            }
            Detail::Deleted { zxid } => {
                if zh {
                    format!("已删除（zxid {zxid}）")
                } else {
                    format!("deleted (zxid {zxid})")
                }
            }
            Detail::Error(e) => {
                if zh {
                    format!("失败：{e}")
                } else {
                    format!("failed with {e}")
                }
            }
            Detail::Children(c) => {
                if zh {
                    format!("子节点 [{}]", c.join(", "))
                } else {
                    format!("children [{}]", c.join(", "))
                }
            }
            Detail::ChildrenCut(c, more) => {
                if zh {
                    format!("子节点 [{}, … 另有 {more} 个]", c.join(", "))
                } else {
                    format!("children [{}, … and {more} more]", c.join(", "))
                }
            }
            Detail::Exists { found, watch } => {
                let w = match (watch, found, zh) {
                    (false, _, _) => "",
                    (true, true, false) => ", watch set for its deletion or change",
                    (true, false, false) => ", watch set for its creation",
                    (true, true, true) => "，已设置删除/修改监视",
                    (true, false, true) => "，已设置创建监视",
                };
                format!(
                    "{}{w}",
                    if *found {
                        pick("it exists", "节点存在")
                    } else {
                        pick("no such node", "节点不存在")
                    }
                )
            }
            Detail::Data { watch } => {
                if *watch {
                    pick("data returned, watch set", "返回数据，已设置监视")
                } else {
                    pick("data returned", "返回数据")
                }
            }
            Detail::Synced => pick("synced", "已同步"),
            Detail::Nodes(n) if n.is_empty() => pick("none", "无"),
            Detail::Nodes(n) => n.join(", "),
            Detail::StillAlive => pick("the session is still alive", "会话仍然存活"),
            Detail::SessionGone => pick("the session has expired", "会话已过期"),
            Detail::Accepted => pick("accepted", "已接受"),
            Detail::LostUpdate => pick(
                "accepted, but another write landed since its read: an update is lost",
                "被接受，但在它读取之后已有其他写入：一次更新丢失了",
            ),
            Detail::Rejected { highest } => {
                if zh {
                    format!("被拒绝：资源已见过更大的令牌 {highest}")
                } else {
                    format!("rejected: the resource has seen token {highest}")
                }
            }
            Detail::Value(v) => {
                if zh {
                    format!("值为 {v}")
                } else {
                    format!("value {v}")
                }
            }
            Detail::Wrote(v) => {
                if zh {
                    format!("已写入 {v}")
                } else {
                    format!("wrote {v}")
                }
            }
            Detail::Text(t) => t.clone(),
            Detail::Words(w) => w[usize::from(zh)].clone(),
        }
    }
}
