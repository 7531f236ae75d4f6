//! A command whose store write fails changes nothing: the room's judge
//! decides without changing its state and the actor applies the decision
//! only after the write committed. The write is made to fail with a
//! SQLite trigger added from a second connection to the same file.

mod common;

use common::{TestServer, on_postgres, play_line, two_players};
use serde_json::json;

fn sql(server: &TestServer, statement: &str) {
    let db = rusqlite::Connection::open(server.dir.path().join("test.sqlite")).unwrap();
    db.execute_batch(statement).unwrap();
}

#[tokio::test]
async fn a_move_or_resignation_that_cannot_be_saved_leaves_the_room_as_it_was() {
    if on_postgres() {
        return; // the trigger below is SQLite's
    }
    let server = TestServer::start().await;
    let (_id, mut white, mut black) = two_players(&server, "chess", None).await;
    let v = play_line(&mut white, &mut black, 0, &["e2e4"]).await;

    sql(
        &server,
        "CREATE TRIGGER no_moves BEFORE INSERT ON moves BEGIN SELECT RAISE(ABORT, 'disk full'); END;
         CREATE TRIGGER no_ends BEFORE UPDATE ON rooms WHEN NEW.reason IS NOT NULL
           BEGIN SELECT RAISE(ABORT, 'disk full'); END;",
    );
    black.send_move("e7e5", 1).await;
    let err = black.expect("error").await;
    assert_eq!(err["d"]["code"], "internal", "{err}");
    black.send(json!({"t": "resign"})).await;
    let err = black.expect("error").await;
    assert_eq!(err["d"]["code"], "internal", "{err}");

    sql(&server, "DROP TRIGGER no_moves; DROP TRIGGER no_ends;");
    // Nothing was applied: the same ply is still to play, under the next
    // event number (a rolled-forward game would call it stale).
    black.send_move("e7e5", 1).await;
    let ack = black.expect("ack").await;
    assert_eq!(ack["d"]["v"], v + 1, "{ack}");
    let seen = white.expect("move").await;
    assert_eq!(seen["v"], v + 1);
    assert_eq!(seen["d"]["ply"], 1);
    black.send(json!({"t": "resign"})).await;
    let end = white.expect("end").await;
    assert_eq!(end["v"], v + 2);
    assert_eq!(end["d"]["outcome"]["winner"], "white", "{end}");
}
