//! The lobby's `games_playing` counts the rooms being played: a running
//! game with someone connected, not an AI room nobody opened.

mod common;

use common::{TestServer, Ws};
use serde_json::{Value, json};

/// Reads lobby messages until `games_playing` equals `n`.
async fn until_playing(lobby: &mut Ws, n: u64) -> Value {
    loop {
        let m = lobby.expect("lobby").await;
        if m["d"]["counters"]["games_playing"] == n {
            return m;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_room_counts_as_played_only_while_someone_is_connected() {
    let server = TestServer::start().await;
    let room = server
        .create_room(json!({"variant": "chess", "color": "white", "ai_level": 1}))
        .await;
    // The room told the lobby before it answered, so the first lobby
    // message already knows it: not played, nobody is there.
    let mut lobby = server.ws("/ws/lobby").await;
    let first = lobby.expect("lobby").await;
    assert_eq!(first["d"]["counters"]["games_playing"], 0, "{first}");
    let (_, snapshot) = server.get("/api/lobby").await;
    let snapshot: Value = serde_json::from_str(&snapshot).unwrap();
    assert_eq!(snapshot["counters"]["games_playing"], 0, "{snapshot}");

    let id = room["id"].as_str().unwrap();
    let token = room["seat_token"].as_str().unwrap();
    let mut player = server.ws(&format!("/ws/room/{id}?token={token}")).await;
    player.expect("state").await;
    until_playing(&mut lobby, 1).await;
    player.close().await;
    until_playing(&mut lobby, 0).await;
}
