//! Full games over real sockets: every variant to its end, spectators,
//! intruders, duplicates, reconnection, clocks, claims, rematches.

mod common;

use std::time::Duration;

use common::{TestServer, Ws, play_line, two_players, ws_path_of};
use serde_json::{Value, json};

/// A chess room with a clock of `clock_ms` written into the store, from
/// `fen`, with both players connected and past their `state`.
async fn seated(server: &TestServer, fen: Option<&str>, clock_ms: u64) -> (String, Ws, Ws) {
    let (id, white_token, black_token) =
        common::insert_room_from(server, "chess", fen, Some(clock_ms)).await;
    let mut white = server
        .ws(&format!("/ws/room/{id}?token={white_token}"))
        .await;
    white.expect("state").await;
    let mut black = server
        .ws(&format!("/ws/room/{id}?token={black_token}"))
        .await;
    black.expect("state").await;
    (id, white, black)
}

async fn expect_end(ws: &mut Ws, winner: Value, reason: &str) -> Value {
    let end = ws.expect("end").await;
    assert_eq!(end["d"]["outcome"]["winner"], winner, "{end}");
    assert_eq!(end["d"]["outcome"]["reason"], reason, "{end}");
    end
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fools_mate_with_a_spectator_who_sees_every_event_in_order() {
    let server = TestServer::start().await;
    let (id, mut white, mut black) = two_players(&server, "chess", None).await;
    let mut spectator = server.ws(&format!("/ws/room/{id}")).await;
    let state = spectator.expect("state").await;
    assert_eq!(state["d"]["you"], Value::Null);
    let v0 = state["d"]["v"].as_u64().unwrap();
    let last = play_line(&mut white, &mut black, 0, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let end = expect_end(&mut white, json!("black"), "checkmate").await;
    assert_eq!(end["v"].as_u64().unwrap(), last + 1);
    expect_end(&mut black, json!("black"), "checkmate").await;
    while spectator.recv().await["t"] != "end" {}
    let events = spectator.events();
    let numbers: Vec<u64> = events.iter().map(|e| e["v"].as_u64().unwrap()).collect();
    let expected: Vec<u64> = (v0 + 1..=v0 + 5).collect();
    assert_eq!(
        numbers, expected,
        "every event once, in order, without gaps"
    );
    let ucis: Vec<&str> = events[..4]
        .iter()
        .map(|e| e["d"]["uci"].as_str().unwrap())
        .collect();
    assert_eq!(ucis, ["f2f3", "e7e5", "g2g4", "d8h4"]);
    assert_eq!(events[3]["d"]["san"], "Qh4#");
    assert_eq!(events[3]["d"]["status"]["outcome"]["reason"], "checkmate");
    // A move after the end is refused and the game stays over.
    white.send_move("e2e4", 4).await;
    assert_eq!(white.expect("error").await["d"]["code"], "game_over");
    // The export carries the result.
    let (status, pgn) = server.get(&format!("/api/rooms/{id}/export")).await;
    assert_eq!(status, 200);
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    assert!(pgn.contains("1. f3 e5 2. g4 Qh4#"), "{pgn}");
    let (status, summary) = server.get(&format!("/api/rooms/{id}")).await;
    assert_eq!(status, 200);
    let summary: Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["state"], "finished");
    assert_eq!(summary["ply"], 4);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn atomic_knight_explodes_the_king() {
    let server = TestServer::start().await;
    let (_, mut white, mut black) = two_players(&server, "atomic", None).await;
    play_line(
        &mut white,
        &mut black,
        0,
        &["g1f3", "a7a6", "f3g5", "a6a5", "g5f7"],
    )
    .await;
    expect_end(&mut black, json!("white"), "king_exploded").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn horde_is_destroyed_when_its_last_pawn_falls() {
    let server = TestServer::start().await;
    let fen = "4k3/8/2q5/8/8/8/P7/8 w - - 0 1";
    let (_, mut white, mut black) = two_players(&server, "horde", Some(fen)).await;
    play_line(&mut white, &mut black, 0, &["a2a4", "c6a4"]).await;
    expect_end(&mut white, json!("black"), "horde_destroyed").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xiangqi_mate_with_two_chariots() {
    let server = TestServer::start().await;
    let fen = "3k5/9/9/9/9/9/9/9/R8/1R2K4 w - - 0 1";
    let (id, mut white, mut black) = two_players(&server, "xiangqi", Some(fen)).await;
    play_line(&mut white, &mut black, 0, &["b1a1", "d10d9", "a1d1"]).await;
    expect_end(&mut black, json!("white"), "checkmate").await;
    // A late visitor's history (rendered from the game record) carries
    // the moves as they were sent live, WXF included.
    let live: Vec<Value> = black
        .events()
        .into_iter()
        .filter(|e| e["t"] == "move")
        .map(|e| json!({"uci": e["d"]["uci"], "san": e["d"]["san"]}))
        .collect();
    assert_eq!(live[0]["san"], "R8=9");
    let mut visitor = server.ws(&format!("/ws/room/{id}")).await;
    let state = visitor.expect("state").await;
    assert_eq!(state["d"]["history"], Value::Array(live));
    let (_, text) = server.get(&format!("/api/rooms/{id}/export")).await;
    assert!(text.contains("[Variant \"Xiangqi\"]"), "{text}");
    assert!(text.contains("1-0"), "{text}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn only_the_seat_holder_moves() {
    let server = TestServer::start().await;
    let (id, mut white, mut black) = two_players(&server, "chess", None).await;
    // A spectator, and a visitor with a forged token, are both refused.
    for path in [
        format!("/ws/room/{id}"),
        format!("/ws/room/{id}?token=AAAAAAAAAAAAAAAAAAAAAA"),
    ] {
        let mut intruder = server.ws(&path).await;
        let state = intruder.expect("state").await;
        assert_eq!(state["d"]["you"], Value::Null);
        intruder.send_move("e2e4", 0).await;
        assert_eq!(intruder.expect("error").await["d"]["code"], "not_a_player");
        intruder.send_bare("resign").await;
        assert_eq!(intruder.expect("error").await["d"]["code"], "not_a_player");
        intruder.close().await;
    }
    // The used invite no longer gives a seat.
    let room = server.get(&format!("/api/rooms/{id}")).await.1;
    assert!(room.contains("\"seated\":true"));
    // Black cannot move for White, nor out of turn.
    black.send_move("e2e4", 0).await;
    assert_eq!(black.expect("error").await["d"]["code"], "not_your_turn");
    // The connection stays usable after errors of every kind.
    white.send(json!({"t": "fly"})).await;
    assert_eq!(white.expect("error").await["d"]["code"], "unknown_type");
    white
        .stream
        .send(tokio_tungstenite::tungstenite::Message::Text(
            "{not json".into(),
        ))
        .await
        .unwrap();
    assert_eq!(white.expect("error").await["d"]["code"], "bad_message");
    white.send(json!({"t": "move", "d": {"uci": "e2e4"}})).await;
    assert_eq!(white.expect("error").await["d"]["code"], "bad_message");
    white.send_move("e2e5", 0).await;
    assert_eq!(white.expect("error").await["d"]["code"], "illegal_move");
    white.send_move("zz", 0).await;
    assert_eq!(white.expect("error").await["d"]["code"], "bad_move");
    white.send_bare("ping").await;
    assert_eq!(white.expect("pong").await["t"], "pong");
    play_line(&mut white, &mut black, 0, &["e2e4"]).await;
}

use futures_util::SinkExt as _;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicates_are_reacked_and_stale_moves_resync() {
    let server = TestServer::start().await;
    let (id, mut white, mut black) = two_players(&server, "chess", None).await;
    let v1 = play_line(&mut white, &mut black, 0, &["e2e4", "e7e5"]).await;
    // White re-sends its first move (as after a lost ack): same ack, no
    // new event, nothing played twice.
    white.send_move("e2e4", 0).await;
    let ack = white.expect("ack").await;
    assert_eq!(ack["d"], json!({"ply": 0, "v": v1 - 1}));
    // A move for a ply that has passed but is not the same move: stale.
    white.send_move("d2d4", 0).await;
    assert_eq!(white.expect("error").await["d"]["code"], "stale");
    let state = white.expect("state").await;
    assert_eq!(state["d"]["history"].as_array().unwrap().len(), 2);
    assert_eq!(state["d"]["v"], v1);
    // A ply from the future: stale too.
    white.send_move("g1f3", 5).await;
    assert_eq!(white.expect("error").await["d"]["code"], "stale");
    white.expect("state").await;
    // Black's duplicate of White's move is not a duplicate for Black.
    black.send_move("e2e4", 0).await;
    assert_eq!(black.expect("error").await["d"]["code"], "stale");
    black.expect("state").await;
    let v2 = play_line(&mut white, &mut black, 2, &["g1f3"]).await;
    assert_eq!(v2, v1 + 1, "the duplicates created no events");
    let room = server.state.store().load_room(&id).await.unwrap().unwrap();
    let moves: Vec<&str> = room.moves.iter().map(|m| m.uci.as_str()).collect();
    assert_eq!(moves, ["e2e4", "e7e5", "g1f3"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnecting_with_v_replays_what_was_missed() {
    let server = TestServer::start().await;
    let room = server
        .create_room(json!({"variant": "chess", "color": "black"}))
        .await;
    let id = room["id"].as_str().unwrap().to_owned();
    let token = room["seat_token"].as_str().unwrap().to_owned();
    let mut black = server.ws(&format!("/ws/room/{id}?token={token}")).await;
    black.expect("state").await;
    let mut white = server
        .ws(&ws_path_of(room["invite_url"].as_str().unwrap()))
        .await;
    let seat = white.expect("seat").await;
    let white_token = seat["d"]["token"].as_str().unwrap().to_owned();
    white.expect("state").await;
    black.expect("joined").await;
    let v = play_line(&mut white, &mut black, 0, &["d2d4", "d7d5"]).await;
    black.close().await;
    // White plays on while Black is away.
    white.send_move("c2c4", 2).await;
    white.expect("ack").await;
    white.expect("move").await;
    white.send_bare("draw_offer").await;
    white.expect("offer").await;
    // Black comes back with its last number: exactly the two events.
    let mut black = server
        .ws(&format!("/ws/room/{id}?token={token}&v={v}"))
        .await;
    let replayed_move = black.recv().await;
    assert_eq!(replayed_move["t"], "move");
    assert_eq!(replayed_move["v"].as_u64().unwrap(), v + 1);
    assert_eq!(replayed_move["d"]["uci"], "c2c4");
    let replayed_offer = black.recv().await;
    assert_eq!(replayed_offer["t"], "offer");
    assert_eq!(replayed_offer["v"].as_u64().unwrap(), v + 2);
    assert_eq!(black.recv().await["t"], "presence");
    // A number the room never reached: a full state.
    let mut late = server
        .ws(&format!("/ws/room/{id}?token={white_token}&v=999"))
        .await;
    let state = late.expect("state").await;
    assert_eq!(state["d"]["you"], "white");
    assert_eq!(state["d"]["v"].as_u64().unwrap(), v + 2);
    assert_eq!(state["d"]["offers"]["draw"], "white");
    // And `sync` in-session does the same.
    black.send(json!({"t": "sync", "d": {"v": v + 1}})).await;
    assert_eq!(black.expect("offer").await["v"].as_u64().unwrap(), v + 2);
    black.send_bare("draw_accept").await;
    expect_end(&mut black, Value::Null, "draw_agreement").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clocks_follow_the_api_and_a_flag_falls() {
    let server = TestServer::start().await;
    let room = server
        .create_room(json!({"variant": "chess", "color": "white", "clock": {"minutes": 0.5, "increment": 3}}))
        .await;
    let id = room["id"].as_str().unwrap();
    let mut white = server
        .ws(&format!(
            "/ws/room/{id}?token={}",
            room["seat_token"].as_str().unwrap()
        ))
        .await;
    let state = white.expect("state").await;
    assert_eq!(state["d"]["clock"]["initial"], 30_000);
    assert_eq!(state["d"]["clock"]["increment"], 3_000);
    assert_eq!(state["d"]["clock"]["running"], Value::Null);
    white.close().await;

    // A 1.5 s game, made in the store (the API's minimum is 15 s).
    let (id, mut white, mut black) = seated(&server, None, 1_500).await;
    play_line(&mut white, &mut black, 0, &["e2e4", "e7e5"]).await;
    // White's clock now runs; White does not move.
    let end = expect_end(&mut black, json!("black"), "timeout").await;
    assert_eq!(end["d"]["clock"]["white"], 0);
    assert_eq!(end["d"]["clock"]["black"], 1_500);
    assert_eq!(end["d"]["clock"]["running"], Value::Null);
    expect_end(&mut white, json!("black"), "timeout").await;
    let (_, pgn) = server.get(&format!("/api/rooms/{id}/export")).await;
    assert!(pgn.contains("[Termination \"Time forfeit\"]"), "{pgn}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_against_a_bare_king_is_a_draw() {
    let server = TestServer::start().await;
    // White has king and rook, Black a bare king: Black cannot win.
    let fen = "8/8/8/4k3/8/8/8/4K2R w - - 0 1";
    let (_, mut white, mut black) = seated(&server, Some(fen), 1_500).await;
    play_line(&mut white, &mut black, 0, &["h1h2", "e5e6", "h2h3"]).await;
    // Black's clock runs out: White wins on time, having mating material.
    expect_end(&mut white, json!("white"), "timeout").await;

    let (id, mut white, mut black) = seated(&server, Some(fen), 1_500).await;
    play_line(&mut white, &mut black, 0, &["h1h2", "e5e6"]).await;
    // White's clock runs out, but a bare king cannot win: a draw.
    let end = expect_end(&mut black, Value::Null, "timeout_vs_insufficient_material").await;
    assert_eq!(end["d"]["clock"]["white"], 0);
    expect_end(&mut white, Value::Null, "timeout_vs_insufficient_material").await;
    let (_, pgn) = server.get(&format!("/api/rooms/{id}/export")).await;
    assert!(pgn.contains("[Result \"1/2-1/2\"]"), "{pgn}");
    assert!(pgn.contains("[Termination \"Time forfeit\"]"), "{pgn}");
    // The stored result reads back after the room is reloaded.
    let (_, summary) = server.get(&format!("/api/rooms/{id}")).await;
    let summary: Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(
        summary["outcome"]["reason"],
        "timeout_vs_insufficient_material"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replayed_moves_and_takebacks_equal_what_was_sent_live() {
    let server = TestServer::start().await;
    let (id, white_token, black_token) = common::insert_room(&server, "chess", Some(600_000)).await;
    let mut white = server
        .ws(&format!("/ws/room/{id}?token={white_token}"))
        .await;
    let v0 = white.expect("state").await["d"]["v"].as_u64().unwrap();
    let mut black = server
        .ws(&format!("/ws/room/{id}?token={black_token}"))
        .await;
    black.expect("state").await;
    let mut spectator = server.ws(&format!("/ws/room/{id}")).await;
    spectator.expect("state").await;
    play_line(&mut white, &mut black, 0, &["e2e4", "e7e5", "g1f3"]).await;
    // Black asks to take back its move and White's reply; White accepts.
    black.send_bare("takeback_offer").await;
    white.expect("offer").await;
    black.expect("offer").await;
    white.send_bare("takeback_accept").await;
    white.expect("takeback").await;
    black.expect("takeback").await;
    play_line(&mut black, &mut white, 1, &["c7c5", "g1f3", "d7d6"]).await;
    // 3 moves, the offer, the takeback, 3 moves.
    while spectator.events().len() < 8 {
        spectator.recv().await;
    }
    let live: Vec<Value> = spectator.events().into_iter().cloned().collect();
    let last = live.last().unwrap()["v"].as_u64().unwrap();
    // From just before the takeback: the takeback and the moves after it,
    // encoded again from the game, exactly as sent.
    let takeback_v = live.iter().find(|e| e["t"] == "takeback").unwrap()["v"]
        .as_u64()
        .unwrap();
    let mut late = server
        .ws(&format!(
            "/ws/room/{id}?token={white_token}&v={}",
            takeback_v - 1
        ))
        .await;
    let mut replayed = Vec::new();
    for _ in takeback_v..=last {
        replayed.push(late.recv().await);
    }
    let expected: Vec<Value> = live
        .iter()
        .filter(|e| e["v"].as_u64().unwrap() >= takeback_v)
        .cloned()
        .collect();
    assert_eq!(replayed, expected);
    assert_eq!(replayed[0]["t"], "takeback");
    assert!(replayed[1]["d"]["moves"].as_array().unwrap().len() > 20);
    // Before the takeback the moves it undid are gone: a full state.
    let mut older = server
        .ws(&format!("/ws/room/{id}?token={white_token}&v={v0}"))
        .await;
    assert_eq!(older.expect("state").await["d"]["v"], last);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn threefold_repetition_is_claimed_on_turn() {
    let server = TestServer::start().await;
    let (_, mut white, mut black) = two_players(&server, "chess", None).await;
    white
        .send(json!({"t": "claim", "d": {"claim": "threefold_repetition"}}))
        .await;
    assert_eq!(white.expect("error").await["d"]["code"], "cannot_claim");
    let shuffle = [
        "g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8",
    ];
    play_line(&mut white, &mut black, 0, &shuffle).await;
    black
        .send(json!({"t": "claim", "d": {"claim": "threefold_repetition"}}))
        .await;
    assert_eq!(black.expect("error").await["d"]["code"], "not_your_turn");
    white
        .send(json!({"t": "claim", "d": {"claim": "threefold_repetition"}}))
        .await;
    expect_end(&mut white, Value::Null, "threefold_repetition").await;
    expect_end(&mut black, Value::Null, "threefold_repetition").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rematch_swaps_colours_and_keeps_the_tokens() {
    let server = TestServer::start().await;
    let room = server
        .create_room(json!({"variant": "chess", "color": "white"}))
        .await;
    let id = room["id"].as_str().unwrap().to_owned();
    let white_token = room["seat_token"].as_str().unwrap().to_owned();
    let mut white = server
        .ws(&format!("/ws/room/{id}?token={white_token}"))
        .await;
    white.expect("state").await;
    let mut black = server
        .ws(&ws_path_of(room["invite_url"].as_str().unwrap()))
        .await;
    let black_token = black.expect("seat").await["d"]["token"]
        .as_str()
        .unwrap()
        .to_owned();
    black.expect("state").await;
    white.expect("joined").await;
    // Abort before both moved is allowed; after, it is not.
    play_line(&mut white, &mut black, 0, &["e2e4", "e7e5"]).await;
    white.send_bare("abort").await;
    assert_eq!(white.expect("error").await["d"]["code"], "cannot_abort");
    white.send_bare("resign").await;
    expect_end(&mut black, json!("black"), "resignation").await;
    expect_end(&mut white, json!("black"), "resignation").await;
    black.send_bare("rematch_offer").await;
    let offer = white.expect("offer").await;
    assert_eq!(offer["d"], json!({"kind": "rematch", "by": "black"}));
    black.expect("offer").await;
    white.send_bare("rematch_accept").await;
    let rematch = white.expect("rematch").await;
    let new_id = rematch["d"]["id"].as_str().unwrap().to_owned();
    assert_eq!(black.expect("rematch").await, rematch);
    assert_ne!(new_id, id);
    // Same tokens, colours swapped.
    let mut new_black = server
        .ws(&format!("/ws/room/{new_id}?token={white_token}"))
        .await;
    let state = new_black.expect("state").await;
    assert_eq!(state["d"]["you"], "black");
    assert_eq!(state["d"]["state"], "playing");
    let mut new_white = server
        .ws(&format!("/ws/room/{new_id}?token={black_token}"))
        .await;
    assert_eq!(new_white.expect("state").await["d"]["you"], "white");
    play_line(&mut new_white, &mut new_black, 0, &["d2d4", "d7d5"]).await;
    // The old room points to the new one.
    let (_, summary) = server.get(&format!("/api/rooms/{id}")).await;
    let summary: Value = serde_json::from_str(&summary).unwrap();
    assert_eq!(summary["rematch"], new_id.as_str());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn takeback_and_draw_offers_can_be_declined_or_accepted() {
    let server = TestServer::start().await;
    let (_, mut white, mut black) = two_players(&server, "chess", None).await;
    play_line(&mut white, &mut black, 0, &["e2e4", "e7e5", "g1f3"]).await;
    // Black asks to take back e7e5 on its own turn: Black's last move and
    // White's reply are undone (2 plies).
    black.send_bare("takeback_offer").await;
    white.expect("offer").await;
    black.expect("offer").await;
    white.send_bare("takeback_decline").await;
    assert_eq!(black.expect("decline").await["d"]["kind"], "takeback");
    white.expect("decline").await;
    black.send_bare("takeback_offer").await;
    white.expect("offer").await;
    black.expect("offer").await;
    white.send_bare("takeback_accept").await;
    let tb = black.expect("takeback").await;
    assert_eq!(tb["d"]["undone"], 2);
    assert_eq!(tb["d"]["ply"], 1);
    assert_eq!(tb["d"]["status"]["turn"], "black");
    white.expect("takeback").await;
    play_line(&mut black, &mut white, 1, &["c7c5"]).await;
    white.send_bare("draw_decline").await;
    assert_eq!(white.expect("error").await["d"]["code"], "no_offer");
    white.send_bare("draw_offer").await;
    black.expect("offer").await;
    white.expect("offer").await;
    black.send_bare("draw_offer").await; // offering back accepts
    expect_end(&mut white, Value::Null, "draw_agreement").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_away_on_turn_loses_by_claim() {
    let server = TestServer::start().await;
    let (_, mut white, mut black) = two_players(&server, "chess", None).await;
    play_line(&mut white, &mut black, 0, &["e2e4"]).await;
    black.close().await;
    // White sees Black gone with a countdown (500 ms in tests).
    let mut countdown = None;
    while countdown.is_none() {
        let p = white.expect("presence").await;
        if p["d"]["black"]["connected"] == false && p["d"]["black"]["claim_in"].is_u64() {
            countdown = Some(p);
        }
    }
    white.send_bare("claim_victory").await;
    // Too early (unless the machine is very slow).
    let early = white.recv().await;
    if early["t"] == "error" {
        assert_eq!(early["d"]["code"], "cannot_claim");
        tokio::time::sleep(Duration::from_millis(700)).await;
        white.send_bare("claim_victory").await;
    }
    expect_end(&mut white, json!("white"), "abandoned").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_ai_room_plays_to_the_end() {
    let server = TestServer::start_with(|c| c, chessplayx_server::engine_picker()).await;
    // The AI (White, level 8) has a mate in one: Ra8#. It moves at once.
    let room = server
        .create_room(json!({"variant": "chess", "color": "black", "ai_level": 8,
                            "fen": "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"}))
        .await;
    assert_eq!(room["invite_url"], Value::Null);
    let id = room["id"].as_str().unwrap();
    let mut me = server
        .ws(&format!(
            "/ws/room/{id}?token={}",
            room["seat_token"].as_str().unwrap()
        ))
        .await;
    let state = me.expect("state").await;
    assert_eq!(state["d"]["ai_level"], 8);
    assert_eq!(state["d"]["players"]["white"]["ai"], 8);
    // Unless the AI was quicker than our join, its move is an event.
    if state["d"]["outcome"].is_null() {
        let mv = me.expect("move").await;
        assert_eq!(mv["d"]["uci"], "a1a8");
        assert_eq!(mv["d"]["by"], "white");
    } else {
        assert_eq!(state["d"]["history"][0]["uci"], "a1a8");
    }
    let (_, summary) = server.get(&format!("/api/rooms/{id}")).await;
    let summary: Value = serde_json::from_str(&summary).unwrap();
    if summary["state"] != "finished" {
        expect_end(&mut me, json!("white"), "checkmate").await;
    }
    // A same-device AI move over HTTP, and an immediate takeback in an AI
    // room from the start position.
    let (status, mv) = server
        .post(
            "/api/ai-move",
            &json!({"variant": "atomic", "fen": null, "moves": ["e2e4"], "level": 1}),
        )
        .await;
    assert_eq!(status, 200, "{mv}");
    assert!(mv["uci"].is_string() && mv["san"].is_string(), "{mv}");
    let room = server
        .create_room(json!({"variant": "xiangqi", "color": "white", "ai_level": 1}))
        .await;
    let id = room["id"].as_str().unwrap();
    let mut me = server
        .ws(&format!(
            "/ws/room/{id}?token={}",
            room["seat_token"].as_str().unwrap()
        ))
        .await;
    me.expect("state").await;
    me.send_move("h3e3", 0).await;
    me.expect("ack").await;
    me.expect("move").await;
    let reply = me.expect("move").await;
    assert_eq!(reply["d"]["by"], "black");
    me.send_bare("takeback_offer").await;
    let tb = me.expect("takeback").await;
    assert_eq!(tb["d"]["undone"], 2);
    assert_eq!(tb["d"]["ply"], 0);
    me.send_bare("draw_offer").await;
    me.expect("offer").await;
    assert_eq!(me.expect("decline").await["d"]["by"], "black");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_room_leaves_memory_and_comes_back_intact() {
    let server = TestServer::start_with(
        |c| chessplayx_server::Config {
            idle_room: Duration::from_millis(200),
            ..c
        },
        common::first_move_picker(),
    )
    .await;
    let (id, mut white, mut black) = two_players(&server, "chess", None).await;
    let v = play_line(&mut white, &mut black, 0, &["e2e4", "c7c5"]).await;
    white.close().await;
    black.close().await;
    let mut waited = 0;
    while server.state.rooms_in_memory() > 0 {
        tokio::time::sleep(Duration::from_millis(50)).await;
        waited += 50;
        assert!(waited < 5_000, "the room never retired");
    }
    // Loaded again on the next visit, with its moves and event number.
    let mut spectator = server.ws(&format!("/ws/room/{id}")).await;
    let state = spectator.expect("state").await;
    assert_eq!(state["d"]["v"].as_u64().unwrap(), v);
    assert_eq!(state["d"]["history"][1]["san"], "c5");
    assert_eq!(server.state.rooms_in_memory(), 1);
}
