//! The room actor's part in a cluster: its writes carry the lease epoch,
//! a fenced write or a lost lease stops the room on this node, and a room
//! retiring gives its lease back.

use super::*;
use crate::store::{StoreError, WriteOp};

impl RoomActor {
    /// Sets the lease epoch the room's writes carry (`None`: a single
    /// node, nothing to carry).
    pub(in crate::room) fn leased(mut self, epoch: Option<i64>) -> Self {
        self.epoch = epoch;
        self
    }

    /// Charges the side on move for the time since the last move, stored
    /// at `last_move_at` (Unix ms): a room taken over from a node that
    /// died keeps an honest clock, the time the room had no owner counted
    /// as on a board clock, and a flag that fell meanwhile falls at once.
    /// Nothing changes when no clock runs (a room that retired had none
    /// running, so only a take-over is charged). The time is read from
    /// the nodes' wall clocks (the old owner's for the move, this node's
    /// for now): keep them synchronised (NTP), a skew is charged too.
    pub(in crate::room) fn charged_since(mut self, last_move_at: Option<u64>) -> Self {
        let (Some(at), Some(clock)) = (last_move_at, self.core.clock.as_mut()) else {
            return self;
        };
        let Some(side) = clock.running() else {
            return self;
        };
        let now = Instant::now();
        let elapsed = Duration::from_millis(crate::util::unix_ms().saturating_sub(at));
        // Past the time left the flag falls at once all the same; capping
        // there keeps the instant computable whatever the clocks say.
        let left = Duration::from_millis(u64::try_from(clock.remaining(side, now)).unwrap_or(0));
        if let Some(since) = now.checked_sub(elapsed.min(left)) {
            clock.start(side, since);
        }
        self
    }

    /// `ops` behind a fence on the room's lease, when it has one.
    pub(super) fn fenced(&self, mut ops: Vec<WriteOp>) -> Vec<WriteOp> {
        if let (Some(epoch), Some(cluster)) = (self.epoch, &self.shared.cluster) {
            ops.insert(
                0,
                WriteOp::Fence {
                    room: self.core.id.clone(),
                    node: cluster.node.as_str().to_owned(),
                    epoch,
                },
            );
        }
        ops
    }

    /// The refusal for a failed write; a fenced one also stops the room
    /// (another node owns it now).
    pub(super) fn write_failed(&mut self, e: &StoreError) -> Refusal {
        if matches!(e, StoreError::Fenced { .. }) {
            tracing::warn!(room = %self.core.id, error = %e, "write fenced: stopping the room here");
            self.lost = true;
            return refuse(
                ErrorCode::Internal,
                "this room moved to another server; reconnect",
            );
        }
        self.internal(e)
    }

    /// Stops a room whose lease is gone without writing anything: leaves
    /// the registry, drops every connection (their sockets close with
    /// "reconnect with your last v", and the clients find the room's new
    /// node), and answers what is queued.
    pub(super) fn stop_lost(&mut self) {
        if let Some(tx) = self.weak.upgrade() {
            self.shared
                .registry
                .remove(&self.core.id, &RoomHandle { tx });
        }
        self.epoch = None;
        self.stop_ai();
        // The new node lists the room now.
        self.shared.lobby.update(LobbyUpdate {
            id: self.core.id.clone(),
            listing: None,
            playing: false,
        });
        self.subs.clear();
        self.rx.close();
        while let Ok(cmd) = self.rx.try_recv() {
            if let RoomCmd::Join { reply, .. } = cmd {
                let _gone = reply.send(JoinReply::Retry);
            }
        }
    }

    /// Gives the lease back when the room retires, so the next node asked
    /// takes the room at once instead of after the lease's expiry.
    pub(super) fn release_lease(&mut self) {
        let (Some(epoch), Some(cluster)) = (self.epoch.take(), &self.shared.cluster) else {
            return;
        };
        let store = self.shared.store.clone();
        let node = cluster.node.as_str().to_owned();
        let id = self.core.id.clone();
        tokio::spawn(async move {
            if let Err(e) = store.release_lease(&id, &node, epoch).await {
                tracing::warn!(room = %id, error = %e, "releasing the lease");
            }
        });
    }
}
