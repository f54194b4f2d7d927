//! Writing a [`Command`] by hand: serde's derive wrote a serializer per variant; here every
//! variant lists its fields and they share one path. The JSON is the derive's (`"failover"`,
//! `{"pause": {"client": 0, "ticks": 40}}`), field order included.

use serde::ser::{Serialize, SerializeStructVariant, Serializer};

use super::command::Command;
use super::command_de::VARIANTS;
use crate::json_write::Writer;

/// A field's value: a count or an index, a signed step, a flag, or a list of indices (as the
/// scenario's lists of clients are: one serializer for all of them).
enum Val {
    N(u64),
    I(i64),
    B(bool),
    List(Vec<usize>),
}

impl Serialize for Val {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Val::N(n) => s.serialize_u64(*n),
            Val::I(n) => s.serialize_i64(*n),
            Val::B(b) => s.serialize_bool(*b),
            Val::List(l) => l.serialize(s),
        }
    }
}

type Field = (&'static str, Val);

/// A variant's fields in declaration order: none (a unit variant), one or two.
type Fields = [Option<Field>; 2];

fn n(name: &'static str, v: u64) -> Option<Field> {
    Some((name, Val::N(v)))
}

impl Command {
    /// The variant's place in [`VARIANTS`] (declaration order).
    fn index(&self) -> usize {
        use Command::*;
        match self {
            Crash { .. } => 0,
            Close { .. } => 1,
            Expire { .. } => 2,
            Partition { .. } => 3,
            Heal { .. } => 4,
            Pause { .. } => 5,
            DropReply { .. } => 6,
            Latency { .. } => 7,
            Failover => 8,
            CrashServer { .. } => 9,
            PauseServer { .. } => 10,
            RestartServer { .. } => 11,
            ClockJump { .. } => 12,
            Split { .. } => 13,
            HealSplit => 14,
            Acquire { .. } => 15,
            Release { .. } => 16,
            Cancel { .. } => 17,
            Extend { .. } => 18,
            Read { .. } => 19,
            PauseLinks { .. } => 20,
        }
    }

    fn fields(&self) -> Fields {
        use Command::*;
        match self {
            Crash { client }
            | Close { client }
            | Expire { client }
            | Partition { client }
            | Heal { client }
            | DropReply { client }
            | Acquire { client }
            | Release { client }
            | Cancel { client }
            | Extend { client } => [n("client", *client as u64), None],
            Pause { client, ticks } => [n("client", *client as u64), n("ticks", *ticks)],
            Latency { min, max } => [n("min", *min), n("max", *max)],
            Failover | HealSplit => [None, None],
            CrashServer { server } => [n("server", u64::from(*server)), None],
            PauseServer { server, ticks } | PauseLinks { server, ticks } => {
                [n("server", u64::from(*server)), n("ticks", *ticks)]
            }
            RestartServer { server, keep_disk } => [
                n("server", u64::from(*server)),
                Some(("keep_disk", Val::B(*keep_disk))),
            ],
            ClockJump { server, by } => {
                [n("server", u64::from(*server)), Some(("by", Val::I(*by)))]
            }
            Split { clients, servers } => {
                let servers = servers.iter().map(|s| usize::from(*s)).collect();
                [
                    Some(("clients", Val::List(clients.clone()))),
                    Some(("servers", Val::List(servers))),
                ]
            }
            Read { client, sync } => [n("client", *client as u64), Some(("sync", Val::B(*sync)))],
        }
    }
}

impl Command {
    /// The command's JSON, as the serde writer below writes it, into `w` (the pages' writer).
    pub fn write_json(&self, w: &mut Writer) {
        let i = self.index();
        let fields = self.fields();
        if fields.iter().flatten().count() == 0 {
            w.string(VARIANTS[i]);
            return;
        }
        w.open('{').key(VARIANTS[i]).open('{');
        for (key, val) in fields.iter().flatten() {
            w.key(key);
            match val {
                Val::N(n) => w.plain(n),
                Val::I(n) => w.plain(n),
                Val::B(b) => w.plain(b),
                Val::List(l) => w.list(l, |w, v| {
                    w.plain(v);
                }),
            };
        }
        w.close('}').close('}');
    }
}

impl Serialize for Command {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let i = self.index();
        let (index, name) = (i as u32, VARIANTS[i]);
        let fields = self.fields();
        let len = fields.iter().flatten().count();
        if len == 0 {
            return s.serialize_unit_variant("Command", index, name);
        }
        let mut v = s.serialize_struct_variant("Command", index, name, len)?;
        for (key, val) in fields.iter().flatten() {
            v.serialize_field(key, val)?;
        }
        v.end()
    }
}

#[cfg(test)]
mod tests {
    use crate::sim::command_de::tests::every_command;

    /// What serde's derive wrote for `every_command()`, recorded before it was replaced.
    const DERIVED: &[&str] = &[
        r#"{"crash":{"client":1}}"#,
        r#"{"close":{"client":2}}"#,
        r#"{"expire":{"client":3}}"#,
        r#"{"partition":{"client":4}}"#,
        r#"{"heal":{"client":5}}"#,
        r#"{"pause":{"client":6,"ticks":7}}"#,
        r#"{"drop_reply":{"client":8}}"#,
        r#"{"latency":{"min":1,"max":9}}"#,
        r#""failover""#,
        r#"{"crash_server":{"server":2}}"#,
        r#"{"pause_server":{"server":1,"ticks":30}}"#,
        r#"{"restart_server":{"server":3,"keep_disk":true}}"#,
        r#"{"clock_jump":{"server":4,"by":-500}}"#,
        r#"{"split":{"clients":[0,2],"servers":[1]}}"#,
        r#""heal_split""#,
        r#"{"acquire":{"client":0}}"#,
        r#"{"release":{"client":1}}"#,
        r#"{"cancel":{"client":2}}"#,
        r#"{"extend":{"client":3}}"#,
        r#"{"read":{"client":4,"sync":true}}"#,
        r#"{"pause_links":{"server":0,"ticks":12}}"#,
    ];

    #[test]
    fn every_variant_writes_what_the_derive_wrote() {
        let all = every_command();
        assert_eq!(all.len(), DERIVED.len());
        for (c, want) in all.iter().zip(DERIVED) {
            assert_eq!(serde_json::to_string(c).unwrap(), *want);
            let mut w = crate::json_write::Writer::default();
            c.write_json(&mut w);
            assert_eq!(w.out, *want);
        }
        let empty = crate::sim::Command::Split {
            clients: vec![],
            servers: vec![],
        };
        let pretty = serde_json::to_string_pretty(&empty).unwrap();
        assert_eq!(
            pretty,
            "{\n  \"split\": {\n    \"clients\": [],\n    \"servers\": []\n  }\n}"
        );
    }
}
