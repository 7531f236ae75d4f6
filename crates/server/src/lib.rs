//! The chessplayx game server: the web app's HTTP API, live rooms and the
//! lobby over WebSockets, AI seats, and a SQLite store that commits every
//! move before anyone hears of it.
//!
//! The wire protocol is documented in `docs/protocol.md`.

mod store;
mod util;

pub use store::{
    ClockConfig, MoveRecord, ResultRecord, RoomRecord, RoomState, SeatRecord, Store, StoreError,
    StoreStats, WriteOp,
};
