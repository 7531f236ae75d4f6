//! Same-device rooms over real sockets: one connection holds both seats
//! (`token=A,B`) and says which acts with `as`; the server judges the
//! game exactly as an online one.

mod common;

use common::{TestServer, Ws};
use serde_json::{Value, json};

/// Sends `{"t": t, "as": seat}` (with `d` when given).
async fn send_as(ws: &mut Ws, t: &str, seat: &str, d: Option<Value>) {
    let mut msg = json!({"t": t, "as": seat});
    if let Some(d) = d {
        msg["d"] = d;
    }
    ws.send(msg).await;
}

/// Plays `moves` from `start_ply` on one two-seat socket without `as`
/// (the side to move acts), checking each ack and event; the last `v`.
async fn play_both(ws: &mut Ws, start_ply: u32, moves: &[&str]) -> u64 {
    let mut last = 0;
    for (i, uci) in moves.iter().enumerate() {
        let ply = start_ply + u32::try_from(i).unwrap();
        ws.send_move(uci, ply).await;
        let ack = ws.expect("ack").await;
        assert_eq!(ack["d"]["ply"], ply, "{ack}");
        let ev = ws.expect("move").await;
        assert_eq!(ev["d"]["uci"], *uci, "{ev}");
        let by = if ply.is_multiple_of(2) {
            "white"
        } else {
            "black"
        };
        assert_eq!(ev["d"]["by"], by, "{ev}");
        last = ev["v"].as_u64().unwrap();
    }
    last
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_a_local_room_gives_both_seats_and_no_invite() {
    let server = TestServer::start().await;
    let room = server
        .create_room(json!({"variant": "chess", "local": true, "color": "black"}))
        .await;
    assert_eq!(room["color"], "white", "{room}");
    assert_eq!(room["invite_url"], Value::Null, "{room}");
    let tokens = &room["seat_tokens"];
    assert_eq!(tokens["white"], room["seat_token"], "{room}");
    assert!(tokens["black"].is_string(), "{room}");
    assert_ne!(tokens["white"], tokens["black"]);
    let (_, summary) = server
        .get(&format!("/api/rooms/{}", room["id"].as_str().unwrap()))
        .await;
    let summary: Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["state"], "playing", "{summary}");
    assert_eq!(summary["players"]["white"]["seated"], true);
    assert_eq!(summary["players"]["black"]["seated"], true);

    // Other rooms say `seat_tokens: null`.
    let online = server.create_room(json!({"variant": "chess"})).await;
    assert_eq!(online["seat_tokens"], Value::Null, "{online}");
    assert!(online["invite_url"].is_string());

    // Not with an AI, not public.
    for body in [
        json!({"variant": "chess", "local": true, "ai_level": 2}),
        json!({"variant": "chess", "local": true, "public": true}),
    ] {
        let (status, err) = server.post("/api/rooms", &body).await;
        assert_eq!(status, 400, "{body} -> {err}");
        assert_eq!(err["error"]["code"], "bad_request", "{err}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_socket_plays_both_sides_takes_back_draws_and_reloads() {
    let server = TestServer::start().await;
    let room = server
        .create_room(json!({"variant": "chess", "local": true}))
        .await;
    let id = room["id"].as_str().unwrap();
    let (white_token, black_token) = (
        room["seat_tokens"]["white"].as_str().unwrap(),
        room["seat_tokens"]["black"].as_str().unwrap(),
    );
    let path = format!("/ws/room/{id}?token={white_token},{black_token}");
    let mut ws = server.ws(&path).await;
    let state = ws.expect("state").await;
    assert_eq!(state["d"]["seats"], json!(["white", "black"]), "{state}");
    assert_eq!(state["d"]["you"], Value::Null, "two seats: no single `you`");
    assert_eq!(state["d"]["state"], "playing");
    let presence = ws.expect("presence").await;
    assert_eq!(presence["d"]["white"]["connected"], true, "{presence}");
    assert_eq!(presence["d"]["black"]["connected"], true, "{presence}");

    play_both(&mut ws, 0, &["e2e4", "e7e5", "g1f3"]).await;

    // `as` picks the seat: Black cannot move for White even when holding
    // both seats, and a duplicate is acknowledged again.
    send_as(
        &mut ws,
        "move",
        "white",
        Some(json!({"uci": "b8c6", "ply": 3})),
    )
    .await;
    assert_eq!(ws.expect("error").await["d"]["code"], "not_your_turn");
    ws.send_move("g1f3", 2).await;
    assert_eq!(ws.expect("ack").await["d"]["ply"], 2);

    // Takeback: White asks, Black accepts: White's move is undone.
    send_as(&mut ws, "takeback_offer", "white", None).await;
    let offer = ws.expect("offer").await;
    assert_eq!(offer["d"], json!({"kind": "takeback", "by": "white"}));
    send_as(&mut ws, "takeback_accept", "black", None).await;
    let takeback = ws.expect("takeback").await;
    assert_eq!(takeback["d"]["undone"], 1, "{takeback}");
    assert_eq!(takeback["d"]["ply"], 2, "{takeback}");
    let v = play_both(&mut ws, 2, &["b1c3"]).await;

    // Reload: a new socket with both tokens and `v` gets nothing missed,
    // then one more move; a third socket behind it replays that move.
    ws.close().await;
    let mut ws = server.ws(&format!("{path}&v={v}")).await;
    let presence = ws.expect("presence").await;
    assert_eq!(presence["d"]["black"]["connected"], true, "{presence}");
    let v2 = play_both(&mut ws, 3, &["b8c6"]).await;
    let mut behind = server.ws(&format!("{path}&v={v}")).await;
    let replayed = behind.expect("move").await;
    assert_eq!(replayed["v"], v2);
    assert_eq!(replayed["d"]["uci"], "b8c6");
    behind.close().await;

    // Draw: offered as White, accepted as Black.
    send_as(&mut ws, "draw_accept", "black", None).await;
    assert_eq!(ws.expect("error").await["d"]["code"], "no_offer");
    send_as(&mut ws, "draw_offer", "white", None).await;
    assert_eq!(ws.expect("offer").await["d"]["kind"], "draw");
    send_as(&mut ws, "draw_accept", "black", None).await;
    let end = ws.expect("end").await;
    assert_eq!(
        end["d"]["outcome"],
        json!({"winner": null, "reason": "draw_agreement"})
    );

    // A seat the connection does not hold cannot be named.
    let mut white_only = server
        .ws(&format!("/ws/room/{id}?token={white_token}"))
        .await;
    let state = white_only.expect("state").await;
    assert_eq!(state["d"]["seats"], json!(["white"]));
    assert_eq!(state["d"]["you"], "white");
    send_as(&mut white_only, "rematch_offer", "black", None).await;
    assert_eq!(
        white_only.expect("error").await["d"]["code"],
        "not_a_player"
    );
    let mut spectator = server.ws(&format!("/ws/room/{id}")).await;
    let state = spectator.expect("state").await;
    assert_eq!(state["d"]["seats"], json!([]));
    // The game exports for anyone.
    let (status, pgn) = server.get(&format!("/api/rooms/{id}/export")).await;
    assert_eq!(status, 200);
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    assert!(pgn.contains("1. e4 e5 2. Nc3 Nc6"), "{pgn}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_same_device_flag_against_a_lone_king_is_a_draw() {
    let server = TestServer::start().await;
    // White has king and rook, Black a bare king; a 1.5 s clock (the
    // API's minimum is 15 s, so the room is written into the store).
    let fen = "8/8/8/4k3/8/8/8/4K2R w - - 0 1";
    let (id, white, black) =
        common::insert_room_from(&server, "chess", Some(fen), Some(1_500)).await;
    let mut ws = server
        .ws(&format!("/ws/room/{id}?token={white},{black}"))
        .await;
    let state = ws.expect("state").await;
    assert_eq!(state["d"]["seats"], json!(["white", "black"]));
    play_both(&mut ws, 0, &["h1h2", "e5e6"]).await;
    // White's clock runs out; a bare king cannot win: a draw.
    let end = ws.expect("end").await;
    assert_eq!(
        end["d"]["outcome"],
        json!({"winner": null, "reason": "timeout_vs_insufficient_material"}),
        "{end}"
    );
    assert_eq!(end["d"]["clock"]["white"], 0);
}
