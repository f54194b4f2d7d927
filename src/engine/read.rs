//! The server's reads (`FinalRequestProcessor`): exists, getData, getChildren and sync, and
//! the two watch requests, checkWatches and removeWatches, as 3.8.0 answers them.

use super::protocol::{Request, Response, WatcherType};
use super::server::Server;
use super::types::{ErrorCode, SessionId};
use super::watch::WatchTable;

impl Server {
    /// Reads (`FinalRequestProcessor`): exists watches even a missing node; getData and
    /// getChildren on a missing node fail before registering anything. An empty path arrives
    /// as null and the lookup throws: MarshallingError.
    pub(super) fn read(
        &mut self,
        session: SessionId,
        request: Request,
    ) -> Result<Response, ErrorCode> {
        if let Request::Exists { path, .. }
        | Request::GetData { path, .. }
        | Request::GetChildren { path, .. } = &request
        {
            if path.is_empty() {
                return Err(ErrorCode::Marshalling);
            }
        }
        match request {
            Request::Exists { path, watch } => {
                if path.contains('\0') {
                    return Err(ErrorCode::BadArguments);
                }
                if watch {
                    self.watches.add(WatchTable::Data, &path, session);
                }
                Ok(Response::Exists {
                    stat: self.tree.get(&path).map(|n| n.stat()),
                })
            }
            Request::GetData { path, watch } => {
                let node = self.tree.get(&path).ok_or(ErrorCode::NoNode)?;
                let (data, stat) = (node.data.clone(), node.stat());
                if watch {
                    self.watches.add(WatchTable::Data, &path, session);
                }
                Ok(Response::GetData { data, stat })
            }
            Request::GetChildren { path, watch } => {
                let node = self.tree.get(&path).ok_or(ErrorCode::NoNode)?;
                let (children, stat) = (node.children.iter().cloned().collect(), node.stat());
                if watch {
                    self.watches.add(WatchTable::Child, &path, session);
                }
                Ok(Response::GetChildren { children, stat })
            }
            Request::Sync { path } => Ok(Response::Sync { path }),
            Request::CheckWatches { path, kind } => self.check_watches(&path, kind),
            Request::RemoveWatches { path, kind } => self.remove_watches(session, &path, kind),
            _ => Err(ErrorCode::BadArguments),
        }
    }

    /// `checkWatches` as 3.8.0 answers it: a path without any `/` fails to deserialize
    /// (MarshallingError); other paths are not validated; a watch of *any* session counts.
    fn check_watches(&self, path: &str, kind: WatcherType) -> Result<Response, ErrorCode> {
        if !path.contains('/') {
            return Err(ErrorCode::Marshalling);
        }
        let found = tables(kind).iter().any(|t| self.watches.watched(*t, path));
        found
            .then_some(Response::Watches)
            .ok_or(ErrorCode::NoWatcher)
    }

    /// `removeWatches`: only this session's watches go; none of that type is NoWatcher.
    fn remove_watches(
        &mut self,
        session: SessionId,
        path: &str,
        kind: WatcherType,
    ) -> Result<Response, ErrorCode> {
        let mut removed = false;
        for t in tables(kind) {
            removed |= self.watches.remove(*t, path, session);
        }
        removed
            .then_some(Response::Watches)
            .ok_or(ErrorCode::NoWatcher)
    }
}

/// The server tables a watcher type covers (an exists-watch on a missing node is a data watch).
fn tables(kind: WatcherType) -> &'static [WatchTable] {
    match kind {
        WatcherType::Children => &[WatchTable::Child],
        WatcherType::Data => &[WatchTable::Data],
        WatcherType::Any => &[WatchTable::Data, WatchTable::Child],
    }
}
