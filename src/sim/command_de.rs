//! Reading a [`Command`] from JSON by hand: serde's derive wrote a field visitor, a map visitor
//! and a sequence visitor for each of the 21 variants, the largest function in the lean wasm
//! (21.7 KB). Here every variant shares one map of optional fields. The JSON is the derive's
//! (`"failover"`, `{"crash": {"client": 0}}`), and so are the messages: unknown variant,
//! missing field; unknown fields are ignored, as they were.

use serde::de::{self, Deserialize, Deserializer, EnumAccess, MapAccess, VariantAccess, Visitor};
use serde::de::{Error as _, IgnoredAny};
use std::fmt;

use super::command::Command;
use super::types::{ClientId, Tick};
use crate::services::ServerId;

/// Every variant's name, as written: the derive's `rename_all = "snake_case"`.
pub(super) const VARIANTS: &[&str] = &[
    "crash",
    "close",
    "expire",
    "partition",
    "heal",
    "pause",
    "drop_reply",
    "latency",
    "failover",
    "crash_server",
    "pause_server",
    "restart_server",
    "clock_jump",
    "split",
    "heal_split",
    "acquire",
    "release",
    "cancel",
    "extend",
    "read",
    "pause_links",
];

/// The fields of every variant; each variant takes the ones it names.
#[derive(Default)]
pub(super) struct Fields {
    pub(super) client: Option<ClientId>,
    pub(super) ticks: Option<Tick>,
    pub(super) min: Option<Tick>,
    pub(super) max: Option<Tick>,
    pub(super) server: Option<ServerId>,
    pub(super) by: Option<i64>,
    pub(super) keep_disk: bool,
    pub(super) sync: bool,
    pub(super) clients: Vec<ClientId>,
    pub(super) servers: Vec<ServerId>,
}

impl<'de> Deserialize<'de> for Fields {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_map(FieldsVisitor)
    }
}

struct FieldsVisitor;

impl<'de> Visitor<'de> for FieldsVisitor {
    type Value = Fields;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a command's fields")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Fields, A::Error> {
        let mut f = Fields::default();
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "client" => f.client = Some(map.next_value()?),
                "ticks" => f.ticks = Some(map.next_value()?),
                "min" => f.min = Some(map.next_value()?),
                "max" => f.max = Some(map.next_value()?),
                "server" => f.server = Some(map.next_value()?),
                "by" => f.by = Some(map.next_value()?),
                "keep_disk" => f.keep_disk = map.next_value()?,
                "sync" => f.sync = map.next_value()?,
                "clients" => f.clients = map.next_value()?,
                "servers" => f.servers = servers(map.next_value()?)?,
                _ => drop(map.next_value::<IgnoredAny>()?),
            }
        }
        Ok(f)
    }
}

/// Server ids, read as a list of client ids is (one reader for both): serde's own message for
/// one out of a `u8`'s range.
fn servers<E: de::Error>(ids: Vec<ClientId>) -> Result<Vec<ServerId>, E> {
    let one = |id: ClientId| {
        let wrong = || E::invalid_value(de::Unexpected::Unsigned(id as u64), &"u8");
        ServerId::try_from(id).map_err(|_| wrong())
    };
    ids.into_iter().map(one).collect()
}

/// Why a command's fields make no command: a required field is missing, or the name is none.
pub(super) enum Fault {
    Missing(&'static str),
    Unknown,
}

/// A required field.
fn need<T>(v: Option<T>, name: &'static str) -> Result<T, Fault> {
    v.ok_or(Fault::Missing(name))
}

/// serde's own message for a fault: "missing field `client`", "unknown variant `x`, …".
fn fault<E: de::Error>(name: &str, f: Fault) -> E {
    match f {
        Fault::Missing(field) => E::missing_field(field),
        Fault::Unknown => E::unknown_variant(name, VARIANTS),
    }
}

/// The command `name` from its fields (a name of [`VARIANTS`] that is not a unit variant):
/// one builder for serde's reader here and the `cmds=` reader (`forced_json`).
pub(super) fn build(name: &str, f: Fields) -> Result<Command, Fault> {
    let client = || need(f.client, "client");
    let server = || need(f.server, "server");
    let ticks = || need(f.ticks, "ticks");
    Ok(match name {
        "crash" => Command::Crash { client: client()? },
        "close" => Command::Close { client: client()? },
        "expire" => Command::Expire { client: client()? },
        "partition" => Command::Partition { client: client()? },
        "heal" => Command::Heal { client: client()? },
        "pause" => Command::Pause {
            client: client()?,
            ticks: ticks()?,
        },
        "drop_reply" => Command::DropReply { client: client()? },
        "latency" => Command::Latency {
            min: need(f.min, "min")?,
            max: need(f.max, "max")?,
        },
        "crash_server" => Command::CrashServer { server: server()? },
        "pause_server" => Command::PauseServer {
            server: server()?,
            ticks: ticks()?,
        },
        "restart_server" => Command::RestartServer {
            server: server()?,
            keep_disk: f.keep_disk,
        },
        "clock_jump" => Command::ClockJump {
            server: server()?,
            by: need(f.by, "by")?,
        },
        "split" => Command::Split {
            clients: f.clients,
            servers: f.servers,
        },
        "acquire" => Command::Acquire { client: client()? },
        "release" => Command::Release { client: client()? },
        "cancel" => Command::Cancel { client: client()? },
        "extend" => Command::Extend { client: client()? },
        "read" => Command::Read {
            client: client()?,
            sync: f.sync,
        },
        "pause_links" => Command::PauseLinks {
            server: server()?,
            ticks: ticks()?,
        },
        _ => return Err(Fault::Unknown),
    })
}

impl<'de> Deserialize<'de> for Command {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_enum("Command", VARIANTS, CommandVisitor)
    }
}

struct CommandVisitor;

impl<'de> Visitor<'de> for CommandVisitor {
    type Value = Command;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("enum Command")
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Command, A::Error> {
        let (name, v) = data.variant::<String>()?;
        match name.as_str() {
            "failover" => v.unit_variant().map(|()| Command::Failover),
            "heal_split" => v.unit_variant().map(|()| Command::HealSplit),
            n if VARIANTS.contains(&n) => {
                build(n, v.newtype_variant::<Fields>()?).map_err(|f| fault(n, f))
            }
            n => Err(A::Error::unknown_variant(n, VARIANTS)),
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    pub(crate) fn every_command() -> Vec<Command> {
        use Command::*;
        vec![
            Crash { client: 1 },
            Close { client: 2 },
            Expire { client: 3 },
            Partition { client: 4 },
            Heal { client: 5 },
            Pause {
                client: 6,
                ticks: 7,
            },
            DropReply { client: 8 },
            Latency { min: 1, max: 9 },
            Failover,
            CrashServer { server: 2 },
            PauseServer {
                server: 1,
                ticks: 30,
            },
            RestartServer {
                server: 3,
                keep_disk: true,
            },
            ClockJump {
                server: 4,
                by: -500,
            },
            Split {
                clients: vec![0, 2],
                servers: vec![1],
            },
            HealSplit,
            Acquire { client: 0 },
            Release { client: 1 },
            Cancel { client: 2 },
            Extend { client: 3 },
            Read {
                client: 4,
                sync: true,
            },
            PauseLinks {
                server: 0,
                ticks: 12,
            },
        ]
    }

    /// Exhaustive: a new variant does not compile here until it joins [`every_command`].
    fn listed(c: &Command) -> bool {
        use Command::*;
        match c {
            Crash { .. } | Close { .. } | Expire { .. } | Partition { .. } | Heal { .. } => true,
            Pause { .. } | DropReply { .. } | Latency { .. } | Failover | CrashServer { .. } => {
                true
            }
            PauseServer { .. } | RestartServer { .. } | ClockJump { .. } | Split { .. } => true,
            HealSplit | Acquire { .. } | Release { .. } | Cancel { .. } | Extend { .. } => true,
            Read { .. } | PauseLinks { .. } => true,
        }
    }

    #[test]
    fn every_variant_reads_back_what_serialize_wrote() {
        let all = every_command();
        assert_eq!(all.len(), VARIANTS.len());
        assert!(all.iter().all(listed));
        for c in all {
            let text = serde_json::to_string(&c).unwrap();
            assert_eq!(serde_json::from_str::<Command>(&text).unwrap(), c, "{text}");
        }
    }

    #[test]
    fn defaults_and_ignored_fields_are_the_derives() {
        let read = |t: &str| serde_json::from_str::<Command>(t).unwrap();
        let r = read(r#"{"restart_server":{"server":1}}"#);
        assert_eq!(
            r,
            Command::RestartServer {
                server: 1,
                keep_disk: false
            }
        );
        let s = read(r#"{"split":{}}"#);
        assert_eq!(
            s,
            Command::Split {
                clients: vec![],
                servers: vec![]
            }
        );
        assert_eq!(
            read(r#"{"crash":{"client":1,"note":[1,{}]}}"#),
            Command::Crash { client: 1 }
        );
        assert_eq!(read(r#"{"failover":null}"#), Command::Failover);
    }

    #[test]
    fn bad_commands_say_what_is_wrong() {
        let err = |t: &str| serde_json::from_str::<Command>(t).unwrap_err().to_string();
        assert!(err(r#"{"crush":{"client":1}}"#)
            .starts_with("unknown variant `crush`, expected one of `crash`"));
        assert!(err(r#""explode""#).starts_with("unknown variant `explode`"));
        assert!(err(r#"{"pause":{"client":1}}"#).starts_with("missing field `ticks`"));
        assert!(err(r#"{"latency":{"min":1}}"#).starts_with("missing field `max`"));
        assert!(err(r#"{"crash":{"client":-1}}"#).starts_with("invalid value: integer `-1`"));
        assert!(err(r#"{"crash":5}"#)
            .starts_with("invalid type: integer `5`, expected a command's fields"));
        assert!(err(r#""crash""#).starts_with("invalid type: unit variant"));
        assert!(err(r#"{"server":{"crash_server":300}}"#).starts_with("unknown variant `server`"));
        assert!(err(r#"{"crash_server":{"server":300}}"#).contains("u8"));
        let list = err(r#"{"split":{"servers":[1,300]}}"#);
        assert!(
            list.starts_with("invalid value: integer `300`, expected u8"),
            "{list}"
        );
    }
}
