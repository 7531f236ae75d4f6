//! The HTTP API and the WebSocket handshake rules over real sockets.

mod common;

use common::{TestServer, Ws, http, ws_path_of};
use futures_util::SinkExt as _;
use serde_json::{Value, json};
use tokio_tungstenite::tungstenite::{self, Message, client::IntoClientRequest as _};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_version_and_unknown_paths() {
    let server = TestServer::start().await;
    let (status, body) = server.get("/api/health").await;
    assert_eq!(status, 200);
    let health: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(health["status"], "ok");
    let (status, body) = server.get("/api/version").await;
    assert_eq!(status, 200);
    let version: Value = serde_json::from_str(&body).unwrap();
    assert!(
        version["version"].as_str().unwrap().starts_with("0.1.0 · "),
        "{version}"
    );
    let (status, body) = server.get("/api/nothing/here").await;
    assert_eq!(status, 404);
    assert!(body.contains("\"code\":\"not_found\""), "{body}");
    for path in [
        "/api/rooms/zzzzzzzz",
        "/api/rooms/bad..id",
        "/api/rooms/zzzzzzzz/export",
    ] {
        assert_eq!(server.get(path).await.0, 404, "{path}");
    }
    // No web app built: every page says how to build it.
    let (status, page) = server.get("/r/abcdefgh").await;
    assert_eq!(status, 200);
    assert!(page.contains("scripts/run"), "{page}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_web_app_is_served_with_index_fallback() {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), "<html>app</html>").unwrap();
    std::fs::write(web.path().join("app.js"), "console.log(1)").unwrap();
    let dir = web.path().to_owned();
    let server = TestServer::start_with(
        move |c| chessplayx_server::Config { web_dir: dir, ..c },
        common::first_move_picker(),
    )
    .await;
    assert_eq!(server.get("/").await.1, "<html>app</html>");
    assert_eq!(server.get("/app.js").await.1, "console.log(1)");
    assert_eq!(server.get("/r/abcdefgh").await.1, "<html>app</html>");
    assert_eq!(server.get("/api/health").await.0, 200);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_position_service_describes_positions_and_refuses_bad_ones() {
    let server = TestServer::start().await;
    let (status, v) = server
        .post(
            "/api/position",
            &json!({"variant": "chess", "fen": null, "moves": []}),
        )
        .await;
    assert_eq!(status, 200, "{v}");
    assert_eq!(v["status"]["legal_moves"].as_array().unwrap().len(), 20);
    assert_eq!(v["moves"].as_array().unwrap().len(), 20);
    let nf3 = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == "g1f3")
        .unwrap();
    assert_eq!(
        nf3,
        &json!({"uci": "g1f3", "san": "Nf3", "from": "g1", "to": "f3", "promotion": null})
    );
    assert_eq!(v["warnings"], json!([]));

    let (status, v) = server
        .post(
            "/api/position",
            &json!({"variant": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"]}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        v["status"]["outcome"],
        json!({"winner": "black", "reason": "checkmate"})
    );
    assert_eq!(v["status"]["san"], "Qh4#");

    let (status, v) = server
        .post(
            "/api/position",
            &json!({"variant": "xiangqi", "moves": ["h3e3"]}),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(v["status"]["wxf"], "C2=5");
    assert!(v["status"]["counters"].is_object());
    assert!(v["warnings"].is_array());
    let h10g8 = v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["uci"] == "h10g8")
        .unwrap();
    assert_eq!(h10g8["from"], "h10");

    for (body, code) in [
        (json!({"variant": "chess", "fen": "not a fen"}), "bad_fen"),
        (
            json!({"variant": "chess", "moves": ["e2e4", "e2e4"]}),
            "bad_move",
        ),
        (
            json!({"variant": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4", "e2e4"]}),
            "bad_move",
        ),
        (json!({"variant": "shogi"}), "bad_request"),
        (json!({"fen": null}), "bad_request"),
        (
            json!({"variant": "chess", "moves": vec!["e2e4"; 1001]}),
            "bad_request",
        ),
    ] {
        let (status, v) = server.post("/api/position", &body).await;
        assert_eq!(status, 400, "{body} -> {v}");
        assert_eq!(v["error"]["code"], code, "{body} -> {v}");
        assert!(v["error"]["message"].is_string());
    }
    let (status, text) = http(server.addr, "POST", "/api/position", Some("{oops"), &[]).await;
    assert_eq!(status, 400);
    assert!(text.contains("bad_request"), "{text}");
    let (status, v) = server
        .post(
            "/api/ai-move",
            &json!({"variant": "chess", "moves": ["f2f3", "e7e5", "g2g4", "d8h4"], "level": 1}),
        )
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (409, Some("game_over"))
    );
    let (status, v) = server
        .post("/api/ai-move", &json!({"variant": "chess", "level": 9}))
        .await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (400, Some("bad_request"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn room_creation_is_validated_and_limited_per_address() {
    let server = TestServer::start_with(
        |c| chessplayx_server::Config {
            room_rate_per_minute: 3,
            ..c
        },
        common::first_move_picker(),
    )
    .await;
    for body in [
        json!({"variant": "chess", "clock": {"minutes": 0.1, "increment": 0}}),
        json!({"variant": "chess", "clock": {"minutes": 5, "increment": 61}}),
        json!({"variant": "chess", "ai_level": 0}),
        json!({"variant": "chess", "color": "green"}),
        json!({"variant": "chess", "fen": "8/8/8/8/8/8/8/8 w - - 0 1"}),
    ] {
        let (status, v) = server.post("/api/rooms", &body).await;
        assert_eq!(status, 400, "{body} -> {v}");
    }
    for _ in 0..3 {
        server.create_room(json!({"variant": "chess"})).await;
    }
    let (status, text) = http(
        server.addr,
        "POST",
        "/api/rooms",
        Some(&json!({"variant": "chess"}).to_string()),
        &[],
    )
    .await;
    assert_eq!(status, 429, "{text}");
    assert!(text.contains("rate_limited"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_lists_open_public_rooms_and_counts() {
    let server = TestServer::start().await;
    let mut lobby = server.ws("/ws/lobby").await;
    let first = lobby.expect("lobby").await;
    assert_eq!(first["d"]["rooms"], json!([]));
    let private = server.create_room(json!({"variant": "chess"})).await;
    let public = server
        .create_room(json!({"variant": "atomic", "color": "white", "public": true, "clock": {"minutes": 3, "increment": 2}}))
        .await;
    let listed = loop {
        let m = lobby.expect("lobby").await;
        if m["d"]["rooms"].as_array().is_some_and(|r| !r.is_empty()) {
            break m;
        }
    };
    let rooms = listed["d"]["rooms"].as_array().unwrap();
    assert_eq!(rooms.len(), 1, "{listed}");
    assert_eq!(rooms[0]["id"], public["id"]);
    assert_eq!(rooms[0]["variant"], "atomic");
    assert_eq!(rooms[0]["open_color"], "black");
    assert_eq!(
        rooms[0]["clock"],
        json!({"initial": 180_000, "increment": 2_000})
    );
    assert_eq!(rooms[0]["invite_url"], public["invite_url"]);
    assert_eq!(listed["d"]["counters"]["rooms_waiting"], 1);
    assert_ne!(rooms[0]["id"], private["id"]);
    let (_, snapshot) = server.get("/api/lobby").await;
    let snapshot: Value = serde_json::from_str(&snapshot).unwrap();
    assert_eq!(snapshot["rooms"][0]["id"], public["id"]);
    // A visitor takes the seat from the lobby: the room leaves the list and
    // counts as a game being played.
    let mut visitor = server
        .ws(&ws_path_of(rooms[0]["invite_url"].as_str().unwrap()))
        .await;
    assert_eq!(visitor.expect("seat").await["d"]["color"], "black");
    let counted = loop {
        let m = lobby.expect("lobby").await;
        if m["d"]["counters"]["games_playing"] == 1 {
            break m;
        }
    };
    assert_eq!(counted["d"]["rooms"], json!([]));
    assert!(counted["d"]["counters"]["players_online"].as_u64().unwrap() >= 2);
    lobby.send_bare("ping").await;
    lobby.expect("pong").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn handshakes_from_other_sites_are_refused() {
    let server = TestServer::start().await;
    let room = server.create_room(json!({"variant": "chess"})).await;
    let path = format!("/ws/room/{}", room["id"].as_str().unwrap());
    let mut req = format!("ws://{}{path}", server.addr)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("Origin", "http://evil.example".parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 403),
        other => panic!("expected 403, got {other:?}"),
    }
    let mut req = format!("ws://{}{path}", server.addr)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("Origin", format!("http://{}", server.addr).parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req).await.unwrap();
    ws.send(Message::Text(json!({"t": "ping"}).to_string().into()))
        .await
        .unwrap();
    // Unknown room: 404 before any upgrade.
    match tokio_tungstenite::connect_async(format!("ws://{}/ws/room/zzzzzzzz", server.addr)).await {
        Err(tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 404),
        other => panic!("expected 404, got {other:?}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn oversized_frames_close_and_floods_are_budgeted() {
    let server = TestServer::start().await;
    let room = server.create_room(json!({"variant": "chess"})).await;
    let path = format!("/ws/room/{}", room["id"].as_str().unwrap());
    // A flood: beyond the burst, messages are answered `rate_limited`
    // and the connection stays.
    let mut ws = server.ws(&path).await;
    ws.expect("state").await;
    for _ in 0..40 {
        ws.send_bare("ping").await;
    }
    let mut pongs = 0;
    let mut limited = 0;
    while pongs + limited < 40 {
        let m = ws.recv().await;
        match m["t"].as_str() {
            Some("pong") => pongs += 1,
            Some("error") => {
                assert_eq!(m["d"]["code"], "rate_limited");
                limited += 1;
            }
            _ => {}
        }
    }
    assert!(
        pongs >= 20 && limited >= 1,
        "{pongs} pongs, {limited} limited"
    );
    // A frame over 8 KiB ends the connection.
    let mut big = server.ws(&path).await;
    big.expect("state").await;
    let huge = json!({"t": "move", "d": {"uci": "x".repeat(9_000), "ply": 0}}).to_string();
    let _ = big.stream.send(Message::Text(huge.into())).await;
    let mut closed = false;
    for _ in 0..10 {
        if big.try_recv().await.is_none() {
            closed = true;
            break;
        }
    }
    assert!(closed, "the connection must close");
    // The room is fine for others.
    let mut again: Ws = server.ws(&path).await;
    again.expect("state").await;
}

/// A single node names itself in a room's summary when started with
/// `--node-id`, and says `null` otherwise (docs/protocol-http.md, the `node`
/// field); it never takes anything from a cluster it is not in.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_single_node_names_itself_as_the_owner() {
    for (name, expected) in [(Some("solo-1"), json!("solo-1")), (None, Value::Null)] {
        let server = TestServer::start_with(
            |mut c| {
                c.node_id = name.map(|n| n.parse().unwrap());
                c
            },
            common::first_move_picker(),
        )
        .await;
        let room = server.create_room(json!({"variant": "chess"})).await;
        let id = room["id"].as_str().unwrap();
        let (status, text) = server.get(&format!("/api/rooms/{id}")).await;
        assert_eq!(status, 200, "{text}");
        let summary: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(summary["node"], expected, "{summary}");
    }
}
