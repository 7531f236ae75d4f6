//! The server's edges as a new user meets them, over real sockets: a
//! client that stops reading, a burst of messages, the room-creation
//! limit's `Retry-After`, the JSON body of every HTTP error, the lobby's
//! first message, and the export's header.

mod common;

use std::time::Duration;

use common::{TIMEOUT, TestServer, first_move_picker, http_raw, two_players};
use futures_util::{SinkExt as _, StreamExt as _};
use serde_json::{Value, json};
use tokio::net::TcpSocket;
use tokio_tungstenite::tungstenite::{Message, protocol::frame::coding::CloseCode};

async fn connections(server: &TestServer) -> u64 {
    let (status, body) = server.get("/api/health").await;
    assert_eq!(status, 200, "{body}");
    serde_json::from_str::<Value>(&body).unwrap()["connections"]
        .as_u64()
        .unwrap()
}

/// Polls `/api/health` until `connections` is `want`; the time it took.
async fn until_connections(server: &TestServer, want: u64, within: Duration) -> Duration {
    let start = tokio::time::Instant::now();
    loop {
        let now = connections(server).await;
        if now == want {
            return start.elapsed();
        }
        assert!(
            start.elapsed() < within,
            "still {now} connections after {within:?} (want {want})"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_stops_reading_is_closed_and_uncounted() {
    // Small kernel buffers on both sides (accepted sockets inherit the
    // listener's), so a few dozen events fill them.
    let listener = TcpSocket::new_v4().unwrap();
    listener.set_send_buffer_size(4096).unwrap();
    listener.bind(([127, 0, 0, 1], 0).into()).unwrap();
    let listener = listener.listen(128).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let mut config = common::test_config(dir.path().join("t.sqlite"));
    config.write_timeout = Duration::from_secs(1);
    let server = TestServer::start_on(listener, dir, config, first_move_picker()).await;
    let (id, mut white, mut black) = two_players(&server, "chess", None).await;

    // A spectator that reads nothing after its handshake.
    let socket = TcpSocket::new_v4().unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let stream = socket.connect(server.addr).await.unwrap();
    let (mut silent, _) =
        tokio_tungstenite::client_async(format!("ws://{}/ws/room/{id}", server.addr), stream)
            .await
            .unwrap();
    until_connections(&server, 3, TIMEOUT).await;

    // The players flood it with move events (each carries the legal
    // moves, a KiB or more).
    let mut legal: Vec<String> = vec!["e2e4".into()];
    for ply in 0..60u32 {
        let (mover, other) = if ply % 2 == 0 {
            (&mut white, &mut black)
        } else {
            (&mut black, &mut white)
        };
        let uci = legal[(ply as usize * 7) % legal.len()].clone();
        mover.send_move(&uci, ply).await;
        mover.expect("ack").await;
        let ev = mover.expect("move").await;
        other.expect("move").await;
        legal = ev["d"]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["uci"].as_str().unwrap().to_owned())
            .collect();
        if legal.is_empty() {
            break;
        }
    }
    // Within the write deadline (1 s here) and a margin, the silent
    // client is gone from the count; the players stay.
    let took = until_connections(&server, 2, Duration::from_secs(8)).await;
    assert!(took < Duration::from_secs(8), "{took:?}");
    // Whether it reads again or not, its connection has ended: what was
    // buffered, then the end.
    let drained = tokio::time::timeout(TIMEOUT, async {
        while let Some(Ok(_)) = silent.next().await {}
    })
    .await;
    assert!(
        drained.is_ok(),
        "the silent client's connection stayed open"
    );
    // The players go on.
    white.send_bare("ping").await;
    white.expect("pong").await;
}

/// Sends `n` pings in one burst, then reads until the close frame.
async fn burst_then_close_code(ws: &mut common::Ws, n: usize) -> CloseCode {
    for _ in 0..n {
        ws.stream
            .feed(Message::Text(json!({"t": "ping"}).to_string().into()))
            .await
            .unwrap();
    }
    ws.stream
        .flush()
        .await
        .expect("the burst is read, not reset");
    loop {
        let frame = tokio::time::timeout(TIMEOUT, ws.stream.next())
            .await
            .expect("a close frame within the timeout");
        match frame {
            Some(Ok(Message::Close(Some(close)))) => return close.code,
            Some(Ok(Message::Text(_) | Message::Ping(_) | Message::Pong(_))) => {}
            other => panic!("expected a close frame, got {other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_of_messages_gets_the_1008_close_frame() {
    let server = TestServer::start().await;
    let room = server
        .create_room(json!({"variant": "chess", "color": "white"}))
        .await;
    let mut ws = server
        .ws(&format!(
            "/ws/room/{}?token={}",
            room["id"].as_str().unwrap(),
            room["seat_token"].as_str().unwrap()
        ))
        .await;
    assert_eq!(burst_then_close_code(&mut ws, 600).await, CloseCode::Policy);
    let mut lobby = server.ws("/ws/lobby").await;
    assert_eq!(
        burst_then_close_code(&mut lobby, 600).await,
        CloseCode::Policy
    );
    until_connections(&server, 0, TIMEOUT).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn waiting_retry_after_seconds_is_enough() {
    // 20 a minute: a token every 3 s, so the wait is not a whole number
    // of seconds and rounding down would come back too early.
    let server = TestServer::start_with(
        |c| chessplayx_server::Config {
            room_rate_per_minute: 20,
            ..c
        },
        first_move_picker(),
    )
    .await;
    let body = json!({"variant": "chess"}).to_string();
    let request = format!(
        "POST /api/rooms HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        server.addr,
        body.len()
    );
    let mut retry = None;
    for _ in 0..25 {
        let (status, head, body) = http_raw(server.addr, &request).await;
        if status == 429 {
            assert!(body.contains("\"code\":\"rate_limited\""), "{body}");
            let secs: u64 = head
                .lines()
                .find_map(|l| l.strip_prefix("retry-after: "))
                .expect("a Retry-After header")
                .trim()
                .parse()
                .unwrap();
            retry = Some(secs);
            break;
        }
        assert_eq!(status, 201, "{body}");
    }
    let secs = retry.expect("the limit is reached within 25 rooms");
    assert!((1..=3).contains(&secs), "{secs}");
    tokio::time::sleep(Duration::from_secs(secs)).await;
    let (status, _, body) = http_raw(server.addr, &request).await;
    assert_eq!(status, 201, "after exactly Retry-After = {secs} s: {body}");
}

/// The error body: `{"error": {"code", "message"}}` with a non-empty
/// message.
fn error_code(body: &str) -> String {
    let v: Value = serde_json::from_str(body).unwrap_or_else(|_| panic!("not JSON: {body:?}"));
    assert!(
        v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()),
        "{body}"
    );
    v["error"]["code"].as_str().unwrap().to_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_http_error_has_the_json_body() {
    let web = tempfile::tempdir().unwrap();
    std::fs::write(web.path().join("index.html"), "<html>app</html>").unwrap();
    let web_dir = web.path().to_owned();
    let server = TestServer::start_with(
        move |c| chessplayx_server::Config { web_dir, ..c },
        first_move_picker(),
    )
    .await;
    let addr = server.addr;
    let req = |method: &str, path: &str, extra: &str, body: &str| {
        format!(
            "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n{extra}Content-Length: {}\r\n\r\n{body}",
            body.len()
        )
    };
    let json_type = "Content-Type: application/json\r\n";
    let position = json!({"variant": "chess"}).to_string();
    let big = json!({"variant": "chess", "moves": vec!["e2e4"; 20_000]}).to_string();
    let cases: Vec<(String, u16, &str)> = vec![
        (req("PUT", "/api/health", "", ""), 405, "method_not_allowed"),
        (
            req("DELETE", "/api/rooms", json_type, ""),
            405,
            "method_not_allowed",
        ),
        (req("POST", "/", "", ""), 405, "method_not_allowed"),
        (req("POST", "/ws/lobby", "", ""), 405, "method_not_allowed"),
        (
            req("POST", "/api/position", json_type, &big),
            413,
            "payload_too_large",
        ),
        (
            req("POST", "/api/position", "", &position),
            415,
            "unsupported_media_type",
        ),
        (
            req(
                "POST",
                "/api/position",
                "Content-Type: text/plain\r\n",
                &position,
            ),
            415,
            "unsupported_media_type",
        ),
        (
            req("POST", "/api/position", json_type, "{\"variant\": "),
            400,
            "bad_request",
        ),
        (req("PUT", "/api/nothing/here", "", ""), 404, "not_found"),
        (req("GET", "/api/nothing/here", "", ""), 404, "not_found"),
        (req("GET", "/ws/lobby", "", ""), 400, "bad_request"),
        (req("GET", "/ws/room/zzzzzzzz", "", ""), 400, "bad_request"),
    ];
    for (request, status, code) in cases {
        let line = request.lines().next().unwrap().to_owned();
        let (got, head, body) = http_raw(addr, &request).await;
        assert_eq!(got, status, "{line}: {body}");
        assert!(
            head.contains("content-type: application/json"),
            "{line}: {head}"
        );
        assert_eq!(error_code(&body), code, "{line}");
        if status == 405 {
            assert!(head.contains("\nallow: "), "{line}: {head}");
        }
    }
    // A cross-origin handshake: 403 with the same body.
    let handshake = format!(
        "GET /ws/lobby HTTP/1.1\r\nHost: {addr}\r\nConnection: Upgrade, close\r\nUpgrade: websocket\r\n\
         Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Origin: http://evil.example\r\n\r\n"
    );
    let (status, _, body) = http_raw(addr, &handshake).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(error_code(&body), "forbidden");
    // Pages are still served.
    assert_eq!(server.get("/r/abcdefgh").await.1, "<html>app</html>");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_lobby_message_counts_its_own_connection() {
    let server = TestServer::start().await;
    let mut first = server.ws("/ws/lobby").await;
    let m = first.expect("lobby").await;
    assert_eq!(m["d"]["counters"]["players_online"], 1, "{m}");
    let mut second = server.ws("/ws/lobby").await;
    let m = second.expect("lobby").await;
    assert_eq!(m["d"]["counters"]["players_online"], 2, "{m}");
    // The first connection hears of the second at the next push.
    let m = first.expect("lobby").await;
    assert_eq!(m["d"]["counters"]["players_online"], 2, "{m}");
}

/// The export's tags, by name.
fn export_tag(text: &str, name: &str) -> Option<String> {
    text.lines().find_map(|l| {
        l.strip_prefix(&format!("[{name} \""))
            .and_then(|v| v.strip_suffix("\"]"))
            .map(str::to_owned)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_export_names_its_site_players_and_clock() {
    let server = TestServer::start().await;
    let room = server
        .create_room(json!({"variant": "atomic", "color": "white", "ai_level": 2,
                            "clock": {"minutes": 5, "increment": 3}}))
        .await;
    let id = room["id"].as_str().unwrap();
    let request = format!(
        "GET /api/rooms/{id}/export HTTP/1.1\r\nHost: chess.test:1234\r\nConnection: close\r\n\r\n"
    );
    let (status, head, text) = http_raw(server.addr, &request).await;
    assert_eq!(status, 200, "{text}");
    assert!(head.contains("attachment"), "{head}");
    let site = format!("http://chess.test:1234/r/{id}");
    assert_eq!(export_tag(&text, "Site").as_deref(), Some(site.as_str()));
    assert_eq!(export_tag(&text, "White").as_deref(), Some("Anonymous"));
    assert_eq!(
        export_tag(&text, "Black").as_deref(),
        Some("chessplayx level 2")
    );
    assert_eq!(export_tag(&text, "TimeControl").as_deref(), Some("300+3"));
    assert_eq!(export_tag(&text, "Variant").as_deref(), Some("Atomic"));
    assert_eq!(export_tag(&text, "Result").as_deref(), Some("*"));
    assert!(export_tag(&text, "Date").is_some_and(|d| d.len() == 10));

    // With --public-url, the Site is under it whatever the Host.
    let public = TestServer::start_with(
        |c| chessplayx_server::Config {
            public_url: Some("https://play.example.org/".parse().unwrap()),
            ..c
        },
        first_move_picker(),
    )
    .await;
    let room = public.create_room(json!({"variant": "xiangqi"})).await;
    let id = room["id"].as_str().unwrap();
    let (status, text) = public.get(&format!("/api/rooms/{id}/export")).await;
    assert_eq!(status, 200, "{text}");
    let site = format!("https://play.example.org/r/{id}");
    assert_eq!(export_tag(&text, "Site").as_deref(), Some(site.as_str()));
    assert_eq!(export_tag(&text, "Variant").as_deref(), Some("Xiangqi"));
}
