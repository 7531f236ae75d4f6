//! The load tool against a real server: a short run plays moves and
//! measures them.

mod common;

use std::time::Duration;

use chessplayx_rules::Variant;
use chessplayx_server::{LoadConfig, loadtest};
use common::TestServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_short_load_run_plays_and_measures_moves() {
    let server = TestServer::start().await;
    let report = loadtest(LoadConfig {
        addr: server.addr,
        also: Vec::new(),
        games: 4,
        idle: 3,
        // Short games and a few seconds, so a game ends even when the
        // machine is loaded and PostgreSQL commits are slow (20 plies in
        // 1.5 s failed once at load average 9).
        duration: Duration::from_millis(3000),
        think: Duration::from_millis(40),
        variants: vec![Variant::Chess, Variant::Xiangqi],
        max_plies: 10,
        seed: 7,
        server_pid: Some(std::process::id()),
        ai_rooms: 1,
    })
    .await
    .unwrap();
    assert_eq!(report.errors, 0, "{}", report.render());
    assert!(report.moves > 10, "{}", report.render());
    assert!(report.games_finished >= 1, "{}", report.render());
    assert!(report.ai_moves >= 1, "{}", report.render());
    assert_eq!(report.latencies_us.len() as u64, report.moves);
    assert!(report.percentile_ms(0.5) <= report.percentile_ms(0.99));
    assert!(report.server_rss_kib.is_some());
    assert!(report.server_rss_peak_kib.is_some_and(|k| k > 0));
    let ai = report.ai_pool.expect("the AI pool's use is reported");
    assert_eq!(ai.threads, 2);
    assert!(ai.searches >= 1, "{}", report.render());
    assert!(ai.busy > 0.0, "{}", report.render());
    let text = report.render();
    assert!(text.contains("moves/s") && text.contains("p99"), "{text}");
    assert_eq!(report.connections, 11);
}
