//! Analysis, the analysis board's engine line and import, over real
//! sockets with the real engine.

mod common;

use std::time::{Duration, Instant};

use common::{TestServer, play_line, two_players};
use serde_json::{Value, json};

/// Polls an analysis until it is complete, checking that progress only
/// grows on the way.
async fn finished(server: &TestServer, id: &str) -> Value {
    let started = Instant::now();
    let mut last_done = 0;
    loop {
        let (status, body) = server.get(&format!("/api/analysis/{id}")).await;
        assert_eq!(status, 200, "{body}");
        let a: Value = serde_json::from_str(&body).unwrap();
        let done = a["done"].as_u64().unwrap();
        assert!(
            done >= last_done,
            "progress went back: {last_done} -> {done}"
        );
        last_done = done;
        if a["complete"] == true {
            assert_eq!(a["done"], a["total"]);
            return a;
        }
        assert!(
            started.elapsed() < Duration::from_secs(90),
            "not complete: {a}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

const HANGING_QUEEN: [&str; 4] = ["e2e4", "e7e5", "g1f3", "d8h4"];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hanging_queen_is_a_blunder_with_a_better_move_and_the_result_is_shared() {
    let server = TestServer::start().await;
    let req = json!({"variant": "chess", "fen": null, "moves": HANGING_QUEEN});
    let (status, started) = server.post("/api/analysis", &req).await;
    assert_eq!(status, 202, "{started}");
    assert_eq!(started["total"], 5);
    let id = started["id"].as_str().unwrap().to_owned();
    // Asked again while running (with the start written out): same run.
    let same = json!({"variant": "chess",
        "fen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "moves": HANGING_QUEEN});
    assert_eq!(
        server.post("/api/analysis", &same).await.1["id"],
        id.as_str()
    );
    let a = finished(&server, &id).await;
    assert_eq!(a["sans"], json!(["e4", "e5", "Nf3", "Qh4"]));
    assert_eq!(a["ucis"], json!(HANGING_QUEEN));
    let queen = &a["moves"][3];
    assert_eq!(queen["ply"], 4);
    assert_eq!(queen["judgement"], "blunder", "{a}");
    let better = queen["better"].as_str().unwrap();
    assert_ne!(better, "d8h4");
    assert!(queen["better_san"].is_string(), "{queen}");
    assert!(queen["loss"].as_i64().unwrap() >= 300, "{queen}");
    // After Qh4 White (Nxh4) is a queen up; the engine's line says so.
    let after = &a["positions"][4];
    assert!(after["eval"]["cp"].as_i64().unwrap() > 400, "{after}");
    assert_eq!(after["best"], "f3h4");
    assert_eq!(after["pv_san"][0], "Nxh4");
    assert!(after["depth"].as_u64().unwrap() > 0);
    // The opening moves are fine.
    assert_eq!(a["moves"][0]["judgement"], Value::Null, "{a}");
    // Cached: a second request answers at once with the same id, finished.
    let (status, again) = server.post("/api/analysis", &req).await;
    assert_eq!((status, again["id"].as_str()), (202, Some(id.as_str())));
    let (_, body) = server.get(&format!("/api/analysis/{id}")).await;
    assert_eq!(
        serde_json::from_str::<Value>(&body).unwrap()["complete"],
        true
    );
    // The same game played in a room is the same analysis.
    let (room, mut white, mut black) = two_players(&server, "chess", None).await;
    play_line(&mut white, &mut black, 0, &HANGING_QUEEN).await;
    let (status, from_room) = server.post("/api/analysis", &json!({"room": room})).await;
    assert_eq!((status, from_room["id"].as_str()), (202, Some(id.as_str())));
    // Unknown ids and rooms.
    assert_eq!(server.get("/api/analysis/0123456789abcdef").await.0, 404);
    assert_eq!(
        server
            .post("/api/analysis", &json!({"room": "zzzzzzzz"}))
            .await
            .0,
        404
    );
    let (status, bad) = server
        .post(
            "/api/analysis",
            &json!({"variant": "chess", "moves": ["e2e5"]}),
        )
        .await;
    assert_eq!(
        (status, bad["error"]["code"].as_str()),
        (400, Some("bad_move"))
    );
}

/// The 7th check in a row by one chariot loses under the Asian rules: the
/// analysis marks that move, and the position after it is won for Black.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn xiangqi_marks_the_move_that_loses_by_perpetual_check() {
    let server = TestServer::start().await;
    let moves: Vec<&str> = ["h9h10", "f10f9", "h10h9", "f9f10"]
        .iter()
        .copied()
        .cycle()
        .take(13)
        .collect();
    let req = json!({"variant": "xiangqi", "fen": "5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1", "moves": moves});
    let (status, started) = server.post("/api/analysis", &req).await;
    assert_eq!(status, 202, "{started}");
    let a = finished(&server, started["id"].as_str().unwrap()).await;
    let marked: Vec<u64> = a["moves"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["violation"] == "perpetual_check")
        .map(|m| m["ply"].as_u64().unwrap())
        .collect();
    assert_eq!(marked, [13], "{a}");
    assert_eq!(a["moves"][0]["violation"], Value::Null);
    assert_eq!(
        a["positions"][13]["eval"],
        json!({"mate": 0, "winner": "black"})
    );
    assert_eq!(a["moves"][12]["judgement"], "blunder", "{a}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_finds_a_mate_in_one_and_checks_its_limits() {
    let server = TestServer::start().await;
    let req = json!({"variant": "chess", "fen": "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1", "moves": [], "ms": 200});
    let (status, e) = server.post("/api/eval", &req).await;
    assert_eq!(status, 200, "{e}");
    assert_eq!(e["eval"], json!({"mate": 1}));
    assert_eq!(e["best"], "d1d8");
    assert_eq!(e["best_san"], "Rd8#");
    assert_eq!(e["pv"][0], "d1d8");
    // Black mates after a white move: from White's point of view, -1.
    let req = json!({"variant": "chess", "fen": "3r2k1/5ppp/8/8/8/8/P4PPP/6K1 w - - 0 1", "moves": ["a2a3"]});
    let (_, e) = server.post("/api/eval", &req).await;
    assert_eq!(e["eval"], json!({"mate": -1}), "{e}");
    assert_eq!(e["best"], "d8d1");
    let (status, e) = server
        .post(
            "/api/eval",
            &json!({"variant": "chess", "moves": [], "ms": 5}),
        )
        .await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (400, Some("bad_request"))
    );
}

const PGN: &str = r#"[Event "Casual game"]
[White "Anna"]
[Black "Ben"]
[Result "*"]

1. e4 {the king's pawn} e5 (1... c5 2. Nf3) 2. Nf3 $1 Nc6
3. Bb5 a6 ; the Spanish
4. Ba4 *
"#;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn import_reads_pgn_and_fen_and_says_where_it_is_wrong() {
    let server = TestServer::start().await;
    let (status, g) = server.post("/api/import", &json!({"text": PGN})).await;
    assert_eq!(status, 200, "{g}");
    assert_eq!(g["variant"], "chess");
    assert_eq!(g["fen"], Value::Null);
    assert_eq!(
        g["moves"],
        json!(["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4"])
    );
    assert_eq!(g["sans"][6], "Ba4");
    assert_eq!(g["headers"]["White"], "Anna");
    assert_eq!(g["status"]["turn"], "black");
    // A syntax error names line and column.
    let bad = "[White \"A\"]\n\n1. e4 e5\n2. Nf3 Nf9";
    let (status, e) = server.post("/api/import", &json!({"text": bad})).await;
    assert_eq!(status, 400);
    assert_eq!(e["error"]["code"], "bad_pgn");
    let msg = e["error"]["message"].as_str().unwrap();
    assert!(msg.starts_with("line 4, column 8: 'Nf9'"), "{msg}");
    // An illegal move names its ply, text and place.
    let (status, e) = server
        .post("/api/import", &json!({"text": "1. e4 e5 2. Ke3"}))
        .await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (400, Some("bad_move"))
    );
    let msg = e["error"]["message"].as_str().unwrap();
    assert!(
        msg.contains("line 1, column 13") && msg.contains("move 3 'Ke3'"),
        "{msg}"
    );
    // A PGN for another game, by its Variant tag.
    let atomic = "[Variant \"Atomic\"]\n1. Nf3 d5 2. Ne5 Nf6 3. Nxf7 1-0";
    let (status, g) = server.post("/api/import", &json!({"text": atomic})).await;
    assert_eq!(
        (status, g["variant"].as_str()),
        (200, Some("atomic")),
        "{g}"
    );
    assert_eq!(g["status"]["outcome"]["winner"], "white");
    // A FEN of each game.
    let fens = [
        ("chess", "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"),
        (
            "horde",
            "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
        ),
        (
            "atomic",
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
        ),
        (
            "xiangqi",
            "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
        ),
    ];
    for (variant, fen) in fens {
        let (status, g) = server
            .post(
                "/api/import",
                &json!({"text": format!("  {fen}\n"), "variant": variant}),
            )
            .await;
        assert_eq!(status, 200, "{variant}: {g}");
        assert_eq!(g["variant"], variant);
        assert_eq!(g["fen"], fen);
        assert_eq!(g["moves"], json!([]));
        assert!(!g["status"]["legal_moves"].as_array().unwrap().is_empty());
    }
    // A FEN alone is read by its board's shape: ten ranks are Xiangqi,
    // eight without a white king Horde, anything else chess.
    for (variant, fen) in [fens[1], fens[3]] {
        let (status, g) = server.post("/api/import", &json!({"text": fen})).await;
        assert_eq!((status, g["variant"].as_str()), (200, Some(variant)), "{g}");
    }
    // A chosen game overrides the shape; a Xiangqi board then does not fit.
    let (status, e) = server
        .post(
            "/api/import",
            &json!({"text": fens[3].1, "variant": "chess"}),
        )
        .await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (400, Some("bad_fen")),
        "{e}"
    );
    let (status, e) = server.post("/api/import", &json!({"text": "   "})).await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (400, Some("bad_pgn")),
        "{e}"
    );
}

/// With the pool's one slot held by a slow AI move, the analysis board's
/// request waits its short while and is told the engine is busy.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn eval_answers_unavailable_when_the_pool_stays_busy() {
    use std::sync::{Arc, atomic::AtomicBool};
    let slow: chessplayx_server::Picker = Arc::new(
        |req: &chessplayx_server::AiRequest, _deadline, _stop: &Arc<AtomicBool>, _so_far: &_| {
            std::thread::sleep(Duration::from_secs(4));
            req.game
                .legal_moves()
                .into_iter()
                .next()
                .map(|m| m.uci.to_string())
        },
    );
    let server =
        TestServer::start_with(|c| chessplayx_server::Config { ai_threads: 1, ..c }, slow).await;
    let addr = server.addr;
    let held = tokio::spawn(async move {
        let body = json!({"variant": "chess", "moves": [], "level": 1}).to_string();
        common::http(addr, "POST", "/api/ai-move", Some(&body), &[]).await
    });
    // The AI move has taken the slot once the pool says so.
    let started = Instant::now();
    loop {
        let (_, health) = server.get("/api/health").await;
        let health: Value = serde_json::from_str(&health).unwrap();
        if health["ai"]["running"] == 1 {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(3), "{health}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let asked = Instant::now();
    let (status, e) = server
        .post("/api/eval", &json!({"variant": "chess", "moves": ["e2e4"]}))
        .await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (503, Some("unavailable")),
        "{e}"
    );
    assert!(
        asked.elapsed() >= Duration::from_millis(1_000),
        "it waited for a slot first"
    );
    assert_eq!(held.await.unwrap().0, 200);
}
