use chessplayx_rules::{ByColor, Color, Variant};

use super::*;

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

fn temp_store() -> (tempfile::TempDir, Store) {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_sqlite(&dir.path().join("sub/dir/db.sqlite")).unwrap();
    (dir, store)
}

#[tokio::test]
async fn a_room_round_trips_with_seats_moves_and_result() {
    let (_dir, store) = temp_store();
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

#[tokio::test]
async fn a_failing_write_is_rolled_back_alone() {
    let (_dir, store) = temp_store();
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
    assert!(matches!(bad, Err(StoreError::Sqlite(_))), "{bad:?}");
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn concurrent_writes_share_transactions() {
    let (_dir, store) = temp_store();
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

#[tokio::test]
async fn reopening_keeps_the_data_and_the_schema() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("db.sqlite");
    {
        let store = Store::open_sqlite(&path).unwrap();
        store
            .write(vec![WriteOp::CreateRoom(Box::new(room("cccccccc")))])
            .await
            .unwrap();
    }
    let store = Store::open_sqlite(&path).unwrap();
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
