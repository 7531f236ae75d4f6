//! The store's tests, each run against both backends: SQLite in a
//! temporary folder and a real PostgreSQL server started for this test
//! binary (see `tests/common/pg.rs`), one database per test.

use std::path::{Path, PathBuf};

use chessplayx_rules::{ByColor, Color, Variant};

use super::*;

mod leases;

#[path = "../../tests/common/pg.rs"]
mod pg;

/// Where a test's database lives.
enum Db {
    /// A SQLite file in a folder that does not exist yet (opening creates
    /// it).
    Sqlite {
        /// Removed (with the file) when the test ends.
        _dir: tempfile::TempDir,
        path: PathBuf,
    },
    /// A fresh PostgreSQL database: its URL.
    Postgres(String),
}

impl Db {
    fn sqlite() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("sub/dir/db.sqlite");
        Self::Sqlite { _dir: dir, path }
    }

    fn postgres() -> Self {
        Self::Postgres(pg::new_database())
    }

    /// The `--db` value of this database.
    fn arg(&self) -> &Path {
        match self {
            Self::Sqlite { path, .. } => path,
            Self::Postgres(url) => Path::new(url),
        }
    }

    /// Opens (again) this database.
    async fn open(&self) -> Store {
        Store::open(self.arg()).await.unwrap()
    }
}

/// Runs each named `async fn(Db)` as two tests, `NAME::sqlite` and
/// `NAME::postgres`.
macro_rules! on_both_backends {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn sqlite() {
                super::$name(super::Db::sqlite()).await;
            }

            #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
            async fn postgres() {
                super::$name(super::Db::postgres()).await;
            }
        }
    )*};
}

on_both_backends!(
    a_room_round_trips_with_seats_moves_and_result,
    a_move_clears_the_offers_and_numbers_the_room,
    a_failing_write_is_rolled_back_alone,
    concurrent_writes_share_transactions,
    reopening_keeps_the_data_and_the_schema,
    a_second_store_sees_each_acknowledged_write,
    stores_opened_together_migrate_once,
);

fn room(id: &str) -> RoomRecord {
    RoomRecord {
        id: id.to_owned(),
        variant: Variant::Atomic,
        start_fen: None,
        clock: Some(ClockConfig {
            initial: 60_000,
            increment: 1_000,
        }),
        public: true,
        invite_hash: Some("inv".into()),
        lobby_invite: Some("raw".into()),
        seats: ByColor::new(
            SeatRecord {
                token_hash: Some("w".into()),
                ai_level: None,
            },
            SeatRecord::default(),
        ),
        state: RoomState::Waiting,
        result: None,
        v: 0,
        offers: String::new(),
        rematch_id: None,
        created_at: 1_000,
        moves: vec![],
    }
}

fn mv(ply: u32, uci: &str) -> MoveRecord {
    MoveRecord {
        ply,
        uci: uci.into(),
        clock: Some(ByColor::new(59_000 - u64::from(ply), 60_000)),
        played_at: 2_000 + u64::from(ply),
        v: 2 + u64::from(ply),
    }
}

async fn a_room_round_trips_with_seats_moves_and_result(db: Db) {
    let store = db.open().await;
    store
        .write(vec![WriteOp::CreateRoom(Box::new(room("abcdefgh")))])
        .await
        .unwrap();
    store
        .write(vec![WriteOp::ClaimSeat {
            room: "abcdefgh".into(),
            color: Color::Black,
            token_hash: "b".into(),
            v: 1,
        }])
        .await
        .unwrap();
    for (ply, uci) in ["e2e4", "e7e5", "g1f3"].into_iter().enumerate() {
        let ply = u32::try_from(ply).unwrap();
        store
            .write(vec![WriteOp::Move {
                room: "abcdefgh".into(),
                record: mv(ply, uci),
            }])
            .await
            .unwrap();
    }
    store
        .write(vec![WriteOp::Takeback {
            room: "abcdefgh".into(),
            keep: 2,
            v: 5,
        }])
        .await
        .unwrap();
    store
        .write(vec![WriteOp::Finish {
            room: "abcdefgh".into(),
            result: ResultRecord {
                winner: Some(Color::Black),
                reason: "resignation".into(),
            },
            v: 6,
        }])
        .await
        .unwrap();
    let loaded = store.load_room("abcdefgh").await.unwrap().unwrap();
    assert_eq!(loaded.state, RoomState::Finished);
    assert_eq!(loaded.v, 6);
    assert_eq!(loaded.invite_hash, None, "a claimed invite is spent");
    assert_eq!(loaded.lobby_invite, None, "a taken seat leaves the lobby");
    assert_eq!(loaded.seats.black.token_hash.as_deref(), Some("b"));
    assert_eq!(loaded.moves, vec![mv(0, "e2e4"), mv(1, "e7e5")]);
    assert_eq!(
        loaded.result,
        Some(ResultRecord {
            winner: Some(Color::Black),
            reason: "resignation".into()
        })
    );
    assert!(store.unfinished_rooms().await.unwrap().is_empty());
    assert_eq!(store.load_room("zzzzzzzz").await.unwrap(), None);
}

/// A move writes only its own row (not the room's): what a reload gives
/// must still be the room's last event number, with the offers standing
/// after an offer and cleared by a later move.
async fn a_move_clears_the_offers_and_numbers_the_room(db: Db) {
    let store = db.open().await;
    let id = "offersvv";
    let write = |op: WriteOp| {
        let store = &store;
        async move { store.write(vec![op]).await.unwrap() }
    };
    let loaded = || async { store.load_room(id).await.unwrap().unwrap() };
    write(WriteOp::CreateRoom(Box::new(room(id)))).await;
    write(WriteOp::Move {
        room: id.into(),
        record: mv(0, "e2e4"),
    })
    .await;
    let after_move = loaded().await;
    assert_eq!((after_move.v, after_move.offers.as_str()), (2, ""));
    write(WriteOp::Event {
        room: id.into(),
        offers: "draw:black".into(),
        v: 3,
    })
    .await;
    let offered = loaded().await;
    assert_eq!((offered.v, offered.offers.as_str()), (3, "draw:black"));
    let mut reply = mv(1, "e7e5");
    reply.v = 4;
    write(WriteOp::Move {
        room: id.into(),
        record: reply,
    })
    .await;
    let answered = loaded().await;
    assert_eq!(
        (answered.v, answered.offers.as_str()),
        (4, ""),
        "the move after the offer cleared it"
    );
    write(WriteOp::Takeback {
        room: id.into(),
        keep: 1,
        v: 5,
    })
    .await;
    let taken_back = loaded().await;
    assert_eq!((taken_back.v, taken_back.moves.len()), (5, 1));
}

async fn a_failing_write_is_rolled_back_alone(db: Db) {
    let store = db.open().await;
    store
        .write(vec![WriteOp::CreateRoom(Box::new(room("aaaaaaaa")))])
        .await
        .unwrap();
    // The same ply twice violates the primary key: the whole job (both
    // ops) must be rolled back, and a concurrent good job must commit.
    let bad = store.write(vec![
        WriteOp::Move {
            room: "aaaaaaaa".into(),
            record: mv(0, "e2e4"),
        },
        WriteOp::Move {
            room: "aaaaaaaa".into(),
            record: mv(0, "d2d4"),
        },
    ]);
    let good = store.write(vec![WriteOp::CreateRoom(Box::new(room("bbbbbbbb")))]);
    let (bad, good) = tokio::join!(bad, good);
    assert!(
        matches!(bad, Err(StoreError::Sqlite(_) | StoreError::Postgres(_))),
        "{bad:?}"
    );
    good.unwrap();
    let a = store.load_room("aaaaaaaa").await.unwrap().unwrap();
    assert!(a.moves.is_empty());
    assert_eq!(a.v, 0);
    assert_eq!(store.stats().jobs, 2, "the failed job is not counted");
    assert!(store.load_room("bbbbbbbb").await.unwrap().is_some());
    let mut ids = store.unfinished_rooms().await.unwrap();
    ids.sort();
    assert_eq!(ids, ["aaaaaaaa", "bbbbbbbb"]);
}

async fn concurrent_writes_share_transactions(db: Db) {
    let store = db.open().await;
    let ids: Vec<String> = (0..50).map(|i| format!("room{i:04}")).collect();
    for id in &ids {
        store
            .write(vec![WriteOp::CreateRoom(Box::new(room(id)))])
            .await
            .unwrap();
    }
    let before = store.stats();
    let mut tasks = Vec::new();
    for id in ids.clone() {
        let store = store.clone();
        tasks.push(tokio::spawn(async move {
            for ply in 0..10 {
                store
                    .write(vec![WriteOp::Move {
                        room: id.clone(),
                        record: mv(ply, "a2a3"),
                    }])
                    .await
                    .unwrap();
            }
        }));
    }
    for t in tasks {
        t.await.unwrap();
    }
    let after = store.stats();
    assert_eq!(after.jobs - before.jobs, 500);
    assert!(
        after.batches - before.batches < 500,
        "50 rooms writing at once must be grouped: {before:?} -> {after:?}"
    );
    for id in &ids {
        assert_eq!(store.load_room(id).await.unwrap().unwrap().moves.len(), 10);
    }
}

async fn reopening_keeps_the_data_and_the_schema(db: Db) {
    {
        let store = db.open().await;
        store
            .write(vec![WriteOp::CreateRoom(Box::new(room("cccccccc")))])
            .await
            .unwrap();
    }
    // Opening again must not run the migrations again (they would fail on
    // the existing tables).
    let store = db.open().await;
    let loaded = store.load_room("cccccccc").await.unwrap().unwrap();
    assert_eq!(loaded, room("cccccccc"));
    assert_eq!(
        loaded.clock,
        Some(ClockConfig {
            initial: 60_000,
            increment: 1_000
        })
    );
}

#[test]
fn opening_a_directory_fails_with_the_path() {
    let dir = tempfile::tempdir().unwrap();
    let err = Store::open_sqlite(dir.path()).unwrap_err();
    assert!(matches!(err, StoreError::Open { .. }), "{err}");
    assert!(err.to_string().contains(&dir.path().display().to_string()));
}

/// What one node acknowledged, another node (its own connections) reads:
/// the write was committed before `write` returned.
async fn a_second_store_sees_each_acknowledged_write(db: Db) {
    let writer = db.open().await;
    let reader = db.open().await;
    writer
        .write(vec![WriteOp::CreateRoom(Box::new(room("dddddddd")))])
        .await
        .unwrap();
    for ply in 0..5 {
        writer
            .write(vec![WriteOp::Move {
                room: "dddddddd".into(),
                record: mv(ply, "a2a3"),
            }])
            .await
            .unwrap();
        let seen = reader.load_room("dddddddd").await.unwrap().unwrap();
        assert_eq!(seen.moves.len(), usize::try_from(ply).unwrap() + 1);
        assert_eq!(seen.v, 2 + u64::from(ply));
    }
    assert_eq!(reader.unfinished_rooms().await.unwrap(), ["dddddddd"]);
}

/// Several nodes starting at once on an empty database: each step of the
/// schema is applied once and every node opens.
async fn stores_opened_together_migrate_once(db: Db) {
    let opened = futures_util::future::join_all((0..4).map(|_| Store::open(db.arg()))).await;
    let stores: Vec<Store> = opened.into_iter().map(Result::unwrap).collect();
    stores[0]
        .write(vec![WriteOp::CreateRoom(Box::new(room("eeeeeeee")))])
        .await
        .unwrap();
    for store in &stores {
        assert!(store.load_room("eeeeeeee").await.unwrap().is_some());
    }
}

#[tokio::test]
async fn a_missing_postgres_database_is_an_error_naming_it() {
    let url = pg::server().url("no_such_database");
    let err = Store::open(Path::new(&url)).await.unwrap_err();
    assert!(matches!(err, StoreError::Open { .. }), "{err}");
    let text = err.to_string();
    assert!(text.contains(&url), "{text}");
    assert!(text.contains("does not exist"), "{text}");
}

#[tokio::test]
async fn an_unreachable_postgres_server_is_an_error_naming_it() {
    // A port nothing listens on (bound, then released).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://someone:hunter2@127.0.0.1:{port}/games");
    let err = Store::open(Path::new(&url)).await.unwrap_err();
    let text = err.to_string();
    assert!(matches!(err, StoreError::Open { .. }), "{text}");
    assert!(
        text.contains(&format!("postgres://someone:***@127.0.0.1:{port}/games")),
        "{text}"
    );
    assert!(
        !text.contains("hunter2"),
        "the password is not shown: {text}"
    );
}

#[tokio::test]
async fn a_path_that_is_no_url_opens_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    // A relative-looking name with "postgres" in it is still a file.
    let path = dir.path().join("postgres:/x.sqlite");
    let store = Store::open(&path).await.unwrap();
    store
        .write(vec![WriteOp::CreateRoom(Box::new(room("ffffffff")))])
        .await
        .unwrap();
    assert!(path.exists(), "the SQLite file was created");
}
