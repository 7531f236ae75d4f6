//! Leases, fencing and the shared room-creation limit, on a real
//! PostgreSQL (they exist only there).

use std::time::Duration;

use chessplayx_rules::Color;

use super::{mv, pg, room};
use crate::store::{Acquired, ResultRecord, RoomState, Store, StoreError, WriteOp};

async fn store_with_room(id: &str) -> Store {
    let store = Store::open(std::path::Path::new(&pg::new_database()))
        .await
        .unwrap();
    store
        .write(vec![WriteOp::CreateRoom(Box::new(room(id)))])
        .await
        .unwrap();
    store
}

fn event(id: &str, node: &str, epoch: i64, v: u64) -> Vec<WriteOp> {
    vec![
        WriteOp::Fence {
            room: id.to_owned(),
            node: node.to_owned(),
            epoch,
        },
        WriteOp::Event {
            room: id.to_owned(),
            offers: String::new(),
            v,
        },
    ]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stale_epoch_is_refused_by_the_database() {
    let store = store_with_room("fence001").await;
    let short = Duration::from_millis(1);
    let Acquired::Taken { epoch: a } = store.acquire_lease("fence001", "a", short).await.unwrap()
    else {
        panic!("the first node takes a free room");
    };
    store.write(event("fence001", "a", a, 1)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;
    // A's lease expired: B takes the room with a higher epoch.
    let Acquired::Taken { epoch: b } = store
        .acquire_lease("fence001", "b", Duration::from_secs(60))
        .await
        .unwrap()
    else {
        panic!("an expired lease is taken");
    };
    assert!(b > a);
    // A wakes up and writes with its old epoch: refused, nothing applied.
    let refused = store.write(event("fence001", "a", a, 2)).await;
    assert!(
        matches!(refused, Err(StoreError::Fenced { epoch, .. }) if epoch == a),
        "{refused:?}"
    );
    // Its own name with B's epoch is refused too: the node must match.
    assert!(matches!(
        store.write(event("fence001", "a", b, 2)).await,
        Err(StoreError::Fenced { .. })
    ));
    assert_eq!(store.load_room("fence001").await.unwrap().unwrap().v, 1);
    store.write(event("fence001", "b", b, 2)).await.unwrap();
    assert_eq!(store.load_room("fence001").await.unwrap().unwrap().v, 2);
    // While B holds it, A cannot take it, and learns who holds it.
    assert_eq!(
        store.acquire_lease("fence001", "a", short).await.unwrap(),
        Acquired::HeldBy {
            node: "b".to_owned()
        }
    );
    assert_eq!(
        store.acquire_lease("nothere", "a", short).await.unwrap(),
        Acquired::NoRoom
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fenced_write_in_a_batch_fails_alone() {
    let store = store_with_room("fence002").await;
    store
        .write(vec![WriteOp::CreateRoom(Box::new(room("fence003")))])
        .await
        .unwrap();
    let ttl = Duration::from_secs(60);
    let Acquired::Taken { epoch: e2 } = store.acquire_lease("fence002", "a", ttl).await.unwrap()
    else {
        panic!()
    };
    let Acquired::Taken { epoch: e3 } = store.acquire_lease("fence003", "a", ttl).await.unwrap()
    else {
        panic!()
    };
    // Many writes at once share transactions; the stale one alone fails.
    let (stale, good) = tokio::join!(
        store.write(event("fence002", "a", e2 + 1, 1)),
        store.write(event("fence003", "a", e3, 1)),
    );
    assert!(matches!(stale, Err(StoreError::Fenced { .. })));
    good.unwrap();
    assert_eq!(store.load_room("fence002").await.unwrap().unwrap().v, 0);
    assert_eq!(store.load_room("fence003").await.unwrap().unwrap().v, 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn renewal_reports_lost_rooms_and_release_keeps_the_epoch_growing() {
    let store = store_with_room("lease001").await;
    let ttl = Duration::from_secs(60);
    let Acquired::Taken { epoch: first } = store.acquire_lease("lease001", "a", ttl).await.unwrap()
    else {
        panic!()
    };
    let ids = vec!["lease001".to_owned()];
    assert_eq!(
        store.renew_leases("a", &ids, ttl).await.unwrap(),
        vec![("lease001".to_owned(), first)]
    );
    store.release_lease("lease001", "a", first).await.unwrap();
    assert_eq!(store.lease_holder("lease001").await.unwrap(), None);
    let Acquired::Taken { epoch: second } =
        store.acquire_lease("lease001", "b", ttl).await.unwrap()
    else {
        panic!("a released room is taken at once")
    };
    assert!(second > first);
    // A no longer holds it: its renewal does not return it.
    assert!(store.renew_leases("a", &ids, ttl).await.unwrap().is_empty());
}

/// Creates room `id` as `kind` says and gives its lease to `node` for a
/// millisecond (a node that then died).
async fn orphan(store: &Store, id: &str, kind: &str, node: &str) {
    let mut record = room(id);
    let mut ops = Vec::new();
    match kind {
        // Both sides moved: White's clock runs.
        "clock running" => {
            record.state = RoomState::Playing;
            ops.push(WriteOp::Move {
                room: id.to_owned(),
                record: mv(0, "e2e4"),
            });
            ops.push(WriteOp::Move {
                room: id.to_owned(),
                record: mv(1, "e7e5"),
            });
        }
        // One move: no clock runs yet.
        "clock not started" => {
            record.state = RoomState::Playing;
            ops.push(WriteOp::Move {
                room: id.to_owned(),
                record: mv(0, "e2e4"),
            });
        }
        "ai" => {
            record.state = RoomState::Playing;
            record.clock = None;
            record.seats.black.ai_level = Some(3);
        }
        "finished" => {
            record.state = RoomState::Playing;
            ops.push(WriteOp::Finish {
                room: id.to_owned(),
                result: ResultRecord {
                    winner: Some(Color::White),
                    reason: "resignation".to_owned(),
                },
                v: 1,
            });
        }
        "waiting" => {}
        other => panic!("{other}"),
    }
    ops.insert(0, WriteOp::CreateRoom(Box::new(record)));
    store.write(ops).await.unwrap();
    let short = Duration::from_millis(1);
    assert!(matches!(
        store.acquire_lease(id, node, short).await.unwrap(),
        Acquired::Taken { .. }
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_sweep_takes_the_orphans_that_need_an_owner_and_gives_back_the_others() {
    let store = Store::open(std::path::Path::new(&pg::new_database()))
        .await
        .unwrap();
    let ttl = Duration::from_secs(60);
    orphan(&store, "swp00001", "clock running", "dead").await;
    orphan(&store, "swp00002", "ai", "dead").await;
    orphan(&store, "swp00003", "clock not started", "dead").await;
    orphan(&store, "swp00004", "finished", "dead").await;
    orphan(&store, "swp00005", "waiting", "dead").await;
    // Retired on purpose: given back, not orphaned.
    orphan(&store, "swp00006", "clock running", "a").await;
    store.release_lease("swp00006", "a", 1).await.unwrap();
    // Run by the sweeping node itself, its renewal late.
    orphan(&store, "swp00007", "clock running", "b").await;
    // Held by a live node.
    orphan(&store, "swp00008", "clock running", "c").await;
    store.acquire_lease("swp00008", "c", ttl).await.unwrap();
    tokio::time::sleep(Duration::from_millis(20)).await;

    let held = vec!["swp00007".to_owned()];
    let mut taken = store.sweep_orphans("b", &held, ttl, 64).await.unwrap();
    taken.sort();
    assert_eq!(
        taken,
        vec![("swp00001".to_owned(), 2), ("swp00002".to_owned(), 2)],
        "the running clock and the AI room are taken, with a new epoch"
    );
    assert_eq!(
        store.lease_holder("swp00001").await.unwrap().as_deref(),
        Some("b")
    );
    for id in ["swp00003", "swp00004", "swp00005", "swp00006", "swp00007"] {
        assert_eq!(store.lease_holder(id).await.unwrap(), None, "{id}");
    }
    assert_eq!(
        store.lease_holder("swp00008").await.unwrap().as_deref(),
        Some("c")
    );
    // What was given back is not looked at again. The room `b` runs
    // itself (its renewal only late) was left to it, but to another node
    // it is an orphan like any other.
    assert_eq!(
        store.sweep_orphans("d", &[], ttl, 64).await.unwrap(),
        vec![("swp00007".to_owned(), 2)]
    );
    assert!(
        store
            .sweep_orphans("d", &[], ttl, 64)
            .await
            .unwrap()
            .is_empty()
    );
    // A room given back by the sweep is taken by the next request, and
    // its old holder's renewal (it was only slow) keeps it.
    assert!(matches!(
        store.acquire_lease("swp00003", "e", ttl).await.unwrap(),
        Acquired::Taken { epoch: 2 }
    ));
    assert_eq!(
        store
            .renew_leases("dead", &["swp00005".to_owned()], ttl)
            .await
            .unwrap(),
        vec![("swp00005".to_owned(), 1)]
    );
    assert_eq!(
        store.lease_holder("swp00005").await.unwrap().as_deref(),
        Some("dead")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sweeps_take_bounded_batches_and_never_the_same_room_twice() {
    let url = pg::new_database();
    let one = Store::open(std::path::Path::new(&url)).await.unwrap();
    let two = Store::open(std::path::Path::new(&url)).await.unwrap();
    let ttl = Duration::from_secs(60);
    let ids: Vec<String> = (0..20).map(|i| format!("bat{i:05}")).collect();
    for id in &ids {
        orphan(&one, id, "clock running", "dead").await;
    }
    tokio::time::sleep(Duration::from_millis(20)).await;
    let first = one.sweep_orphans("a", &[], ttl, 6).await.unwrap();
    assert_eq!(first.len(), 6, "a sweep takes at most its batch");
    // Two nodes sweeping at once split the rest.
    let (a, b) = tokio::join!(
        one.sweep_orphans("a", &[], ttl, 10),
        two.sweep_orphans("b", &[], ttl, 10),
    );
    let mut all: Vec<String> = first
        .into_iter()
        .chain(a.unwrap())
        .chain(b.unwrap())
        .map(|(id, epoch)| {
            assert_eq!(epoch, 2, "{id}");
            id
        })
        .collect();
    all.sort();
    assert_eq!(all, ids, "every orphan taken once");
    assert!(
        one.sweep_orphans("a", &[], ttl, 10)
            .await
            .unwrap()
            .is_empty()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_room_limit_is_one_bucket_for_every_store() {
    let url = pg::new_database();
    let one = Store::open(std::path::Path::new(&url)).await.unwrap();
    let two = Store::open(std::path::Path::new(&url)).await.unwrap();
    let mut taken = 0;
    for i in 0..40 {
        let store = if i % 2 == 0 { &one } else { &two };
        if store.take_room_token("10.0.0.1", 30).await.unwrap().is_ok() {
            taken += 1;
        }
    }
    assert_eq!(taken, 30, "the burst is 30 across both stores");
    let wait = one
        .take_room_token("10.0.0.1", 30)
        .await
        .unwrap()
        .unwrap_err();
    assert!(
        wait > Duration::ZERO && wait <= Duration::from_secs(2),
        "{wait:?}"
    );
    assert!(one.take_room_token("10.0.0.2", 30).await.unwrap().is_ok());
}

#[tokio::test]
async fn sqlite_has_no_leases() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("db.sqlite")).await.unwrap();
    assert!(matches!(
        store.acquire_lease("x", "a", Duration::from_secs(1)).await,
        Err(StoreError::NotShared)
    ));
}
