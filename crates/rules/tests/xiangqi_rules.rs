//! Own positions for each rule of §5–§7 of the rules page (the cases file
//! is only a sample): the chase relation and its exceptions, the
//! perpetual limits, streak resets, the draw counters and the order of
//! adjudication. Every move sequence was checked for legality with
//! pyffish; the expectations follow from the page's rules.

use chessplayx_rules::{
    Color, EndReason, Outcome,
    xiangqi::{
        Bitboard, LimitCap, Move, MoveUnit, PlyReport, Square, UciMove, ViolationMode, Xiangqi,
        XiangqiConfig, XiangqiGame, XiangqiPlayError, capture_ok, is_protected, threatens,
    },
};

fn game(fen: &str) -> XiangqiGame {
    XiangqiGame::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn game_with(fen: &str, config: XiangqiConfig) -> XiangqiGame {
    let pos = Xiangqi::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
    XiangqiGame::with_config(pos, config)
}

fn mv(game: &XiangqiGame, uci: &str) -> Move {
    UciMove::from_ascii(uci.as_bytes())
        .unwrap_or_else(|e| panic!("{uci}: {e}"))
        .to_move(game.position())
        .unwrap_or_else(|e| panic!("{uci} in {}: {e}", game.position().fen()))
}

fn play(game: &mut XiangqiGame, uci: &str) -> PlyReport {
    let m = mv(game, uci);
    game.play(m)
        .unwrap_or_else(|e| panic!("{uci} at ply {}: {e}", game.ply_count() + 1))
}

fn play_all(game: &mut XiangqiGame, moves: &[String]) -> Vec<PlyReport> {
    moves.iter().map(|m| play(game, m)).collect()
}

/// `n` plies of a repeated cycle.
fn cycle(moves: &str, n: usize) -> Vec<String> {
    moves
        .split_whitespace()
        .cycle()
        .take(n)
        .map(str::to_owned)
        .collect()
}

fn sq(name: &str) -> Square {
    name.parse().unwrap_or_else(|_| panic!("bad square {name}"))
}

fn names(bb: Bitboard) -> Vec<String> {
    let mut v: Vec<String> = bb.map(|s| s.to_string()).collect();
    v.sort();
    v
}

/// The chase set of a ply as (target, attackers) names.
fn chased(report: &PlyReport) -> Vec<(String, Vec<String>)> {
    report
        .chased
        .iter()
        .map(|c| (c.target.to_string(), names(c.attackers)))
        .collect()
}

fn chase(target: &str, attackers: &[&str]) -> (String, Vec<String>) {
    (target.to_owned(), {
        let mut v: Vec<String> = attackers.iter().map(|&s| s.to_owned()).collect();
        v.sort();
        v
    })
}

/// Plays one move from `fen` and returns its chase set.
fn chase_of(fen: &str, uci: &str) -> Vec<(String, Vec<String>)> {
    let mut g = game(fen);
    chased(&play(&mut g, uci))
}

// ---------------------------------------------------------------- §7.3 --

#[test]
fn a_cannon_gaining_a_screen_chases() {
    // The horse c3-b5 becomes the screen between cannon b1 and horse b8.
    assert_eq!(
        chase_of("3k5/9/1n7/9/9/9/9/2N6/9/1C2K4 w - - 0 1", "c3b5"),
        vec![chase("b8", &["b1"])]
    );
}

#[test]
fn a_discovered_chariot_line_chases() {
    // The horse leaves the a-file: chariot a1 now attacks cannon a7.
    assert_eq!(
        chase_of("3k5/9/9/c8/9/9/9/N8/9/R3K4 w - - 0 1", "a3c2"),
        vec![chase("a7", &["a1"])]
    );
}

#[test]
fn losing_its_protection_makes_a_piece_chased() {
    // Chariot e2 attacks cannon e6, protected by horse d8 until the red
    // horse lands on d7, the leg of the protector.
    let fen = "5k3/9/3n5/9/4c4/2N6/9/9/4R4/3K5 w - - 0 1";
    let g = game(fen);
    assert!(
        g.threats().targets().is_empty(),
        "protected before: {:?}",
        g.threats()
    );
    assert_eq!(chase_of(fen, "c5d7"), vec![chase("e6", &["e2"])]);
}

#[test]
fn offering_a_same_kind_exchange_is_not_a_chase_unless_the_target_is_pinned() {
    // h3-h8 attacks chariot d8, which can take back: an offer.
    assert_eq!(
        chase_of("3k5/9/3r5/9/9/9/9/7R1/9/5K3 w - - 0 1", "h3h8"),
        vec![]
    );
    // With chariot d2 behind it, d8 cannot take h8 without exposing its
    // general: a chase by h8 only (d2 and d8 still "offer" each other).
    assert_eq!(
        chase_of("3k5/9/3r5/9/9/9/9/7R1/3R5/5K3 w - - 0 1", "h3h8"),
        vec![chase("d8", &["h8"])]
    );
}

#[test]
fn a_pinned_horse_does_not_chase() {
    // Cannon f3 leaves the leg of horse e3, which then attacks cannon g4.
    // Pinned by chariot e8 against its general: no chase.
    assert_eq!(
        chase_of("3k5/9/4r4/9/9/9/6c2/4NC3/9/4K4 w - - 0 1", "f3f2"),
        vec![]
    );
    // The same without the pinning chariot: a chase.
    assert_eq!(
        chase_of("3k5/9/9/9/9/9/6c2/4NC3/9/4K4 w - - 0 1", "f3f2"),
        vec![chase("g4", &["e3"])]
    );
}

#[test]
fn a_protected_piece_is_not_chased_until_the_recapture_is_unsafe() {
    // Advisor e9 is protected by its general.
    assert_eq!(
        chase_of("4k4/4a4/9/9/9/9/9/9/R8/5K3 w - - 0 1", "a2a9"),
        vec![]
    );
    // With horse g8 covering e9 the general cannot take back: both the
    // chariot and the horse now threaten it.
    assert_eq!(
        chase_of("4k4/4a4/6N2/9/9/9/9/9/R8/5K3 w - - 0 1", "a2a9"),
        vec![chase("e9", &["a9", "g8"])]
    );
}

#[test]
fn a_chariot_attacked_by_a_horse_is_chased_despite_protection() {
    // Elephant e8 protects c6 either way; a chariot there is chased by the
    // horse, a cannon is not.
    assert_eq!(
        chase_of("4k4/9/4b4/9/2r6/9/9/1N7/9/5K3 w - - 0 1", "b3d4"),
        vec![chase("c6", &["d4"])]
    );
    assert_eq!(
        chase_of("4k4/9/4b4/9/2c6/9/9/1N7/9/5K3 w - - 0 1", "b3d4"),
        vec![]
    );
}

#[test]
fn soldiers_are_chased_only_across_the_river() {
    assert_eq!(
        chase_of("3k5/9/9/p8/9/9/9/9/1R7/4K4 w - - 0 1", "b2a2"),
        vec![]
    );
    assert_eq!(
        chase_of("3k5/9/9/9/9/9/p8/9/1R7/4K4 w - - 0 1", "b2a2"),
        vec![chase("a4", &["a2"])]
    );
}

#[test]
fn soldiers_never_chase() {
    let mut g = game("3k5/9/9/3n5/4P4/9/9/9/9/4K4 w - - 0 1");
    let r = play(&mut g, "e6e7");
    assert!(r.chased.is_empty());
    assert!(r.progress, "a crossed soldier's forward step is progress");
}

#[test]
fn the_placement_predicates_ignore_existing_checks_only() {
    // Red is in check from chariot e8. Taking d5 with the chariot a5 does
    // not change that check, so it is check-neutral (though illegal).
    let pos = Xiangqi::from_fen("3k5/9/4r4/9/9/R2n5/9/9/9/4K4 w - - 0 1")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(pos.is_check());
    assert!(!pos.is_legal(Move::new(sq("a5"), sq("d5"))));
    assert!(capture_ok(pos.board(), sq("a5"), sq("d5")));
    assert!(!capture_ok(pos.board(), sq("a5"), sq("e8")), "not attacked");
    assert!(threatens(
        pos.board(),
        sq("a5"),
        sq("d5"),
        &XiangqiConfig::default()
    ));
    // A pinned piece's capture opens a new line on its general.
    let pinned = Xiangqi::from_fen("3k5/9/4r4/9/9/9/6c2/4N4/9/4K4 w - - 0 1")
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!capture_ok(pinned.board(), sq("e3"), sq("g4")));
    // Protection by the general, spoilt by a horse covering the square.
    let b =
        Xiangqi::from_fen("4k4/4a4/9/9/9/9/9/9/9/R4K3 w - - 0 1").unwrap_or_else(|e| panic!("{e}"));
    let mut board = b.board().clone();
    board.move_piece(sq("a1"), sq("a9"));
    assert!(is_protected(&board, sq("a9"), sq("e9")));
    board.set_piece_at(
        sq("g8"),
        chessplayx_rules::xiangqi::Piece::new(Color::White, chessplayx_rules::xiangqi::Role::Horse),
    );
    assert!(!is_protected(&board, sq("a9"), sq("e9")));
}

#[test]
fn minor_pieces_on_majors_ignore_protection_only_with_k6() {
    // Elephant e3-c1 attacks the horse a3, which chariot a10 protects.
    let fen = "r3k4/9/9/9/9/9/9/n3B4/9/3K5 w - - 0 1";
    assert_eq!(chase_of(fen, "e3c1"), vec![]);
    let mut g = game_with(
        fen,
        XiangqiConfig {
            minor_on_major_always_chase: true,
            ..XiangqiConfig::default()
        },
    );
    assert_eq!(chased(&play(&mut g, "e3c1")), vec![chase("a3", &["c1"])]);
}

// ------------------------------------------------------- §7.5, §7.6 --

#[test]
fn two_pieces_may_check_twelve_times_black_loses_at_the_thirteenth() {
    let fen = "5k3/9/9/9/4r4/9/9/9/5r3/3K5 b - - 0 1";
    let moves = cycle("f2f1 d1d2 e6d6 d2e2 d6e6 e2d2 f1f2 d2d1", 25);
    let mut g = game(fen);
    play_all(&mut g, &moves[..24]);
    assert_eq!(g.outcome(), None);
    let s = g.streaks(Color::Black);
    assert_eq!(
        (s.check.len, s.check.pieces.count(), s.check.limit),
        (12, 2, 12)
    );
    play(&mut g, &moves[24]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, EndReason::PerpetualCheck))
    );
    assert_eq!(g.end_ply(), Some(25));
}

#[test]
fn three_checking_pieces_may_check_eighteen_times() {
    // The cannon d1 joins the second check of every cycle over the screen
    // d5, so three pieces take part: 18 checks are allowed.
    let fen = "3k5/5R3/9/9/9/4R4/9/9/9/3C1K3 w - - 0 1";
    let moves = cycle("f9f10 d10d9 e5d5 d9e9 d5e5 e9d9 f10f9 d9d10", 37);
    let mut g = game(fen);
    let reports = play_all(&mut g, &moves[..36]);
    assert_eq!(names(reports[2].checkers), ["d1", "d5"]);
    assert_eq!(g.outcome(), None, "a 2-piece limit would end at ply 25");
    let s = g.streaks(Color::White);
    assert_eq!(
        (s.check.len, s.check.pieces.count(), s.check.limit),
        (18, 3, 18)
    );
    play(&mut g, &moves[36]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, EndReason::PerpetualCheck))
    );
    assert_eq!(g.end_ply(), Some(37));
}

#[test]
fn a_checking_capture_restarts_the_count() {
    // The first check takes the horse h10: progress, not counted; the 7th
    // counted check is ply 15.
    let mut g = game("5k1n1/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1");
    let moves = cycle("h9h10 f10f9 h10h9 f9f10", 15);
    let first = play(&mut g, &moves[0]);
    assert!(first.check && first.progress);
    assert_eq!(g.streaks(Color::White).check.len, 0);
    play_all(&mut g, &moves[1..14]);
    assert_eq!(g.outcome(), None);
    play(&mut g, &moves[14]);
    assert_eq!(g.end_ply(), Some(15));
    assert_eq!(
        g.outcome().map(|o| (o.winner, o.reason)),
        Some((Some(Color::Black), EndReason::PerpetualCheck))
    );
}

#[test]
fn the_opponents_capture_resets_the_checkers_streak() {
    // Black's general escapes the first check by taking the horse f9.
    let mut g = game("5k3/5N1R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1");
    play(&mut g, "h9h10");
    assert_eq!(g.streaks(Color::White).check.len, 1);
    let reply = play(&mut g, "f10f9");
    assert!(reply.progress);
    assert_eq!(g.streaks(Color::White).check.len, 0);
    let rest = cycle("h10h9 f9f10 h9h10 f10f9", 13);
    play_all(&mut g, &rest[..12]);
    assert_eq!(g.outcome(), None);
    play(&mut g, &rest[12]);
    assert_eq!(g.end_ply(), Some(15));
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, EndReason::PerpetualCheck))
    );
}

#[test]
fn mutual_perpetual_check_is_a_draw_when_black_triggers() {
    let mut g = game("3r5/4k4/9/4c4/9/9/3R5/3K5/4C4/9 b - - 0 1");
    play_all(&mut g, &cycle("e7d7 d4e4 d7e7 e4d4", 25));
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(EndReason::MutualPerpetualCheck))
    );
    assert_eq!(g.end_ply(), Some(25));
}

#[test]
fn check_against_chase_loses_for_the_checker_whoever_triggers() {
    // Black chases soldier f6 (discovered by its general), Red checks with
    // a soldier: Black's 7th chase triggers, Red (checker) loses.
    let mut g = game("5c3/5k3/5P3/9/5P3/9/9/9/9/3K5 b - - 0 1");
    let reports = play_all(&mut g, &cycle("f9e9 f8e8 e9f9 e8f8", 13));
    assert_eq!(chased(&reports[0]), vec![chase("f6", &["f10"])]);
    assert!(reports[1].check);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, EndReason::PerpetualCheckVsChase))
    );
    // One ply later: Red's 7th check triggers, Red loses again.
    let mut g = game("5c3/4k4/5P3/9/5P3/9/9/9/9/3K5 w - - 1 1");
    play_all(&mut g, &cycle("f8e8 e9f9 e8f8 f9e9", 13));
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, EndReason::PerpetualCheckVsChase))
    );
    assert_eq!(g.end_ply(), Some(13));
}

#[test]
fn mutual_perpetual_chase_is_a_draw_and_single_chase_loses() {
    let mut g = game("4k4/9/9/4p4/9/9/4Pr3/9/7N1/4K4 b - - 0 1");
    play_all(
        &mut g,
        &"f4h4 h2f3 h4h3 f3g5 h3g3 g5i4 g3g4 i4h2 g4h4 h2f3 h4h3 f3g5 h3g3"
            .split_whitespace()
            .map(str::to_owned)
            .collect::<Vec<_>>(),
    );
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(EndReason::MutualPerpetualChase))
    );
    let mut g = game("9/5k3/7n1/8R/9/9/9/3A5/9/3K5 b - - 0 1");
    let moves = cycle("h8g6 i7i10 g6h8 i10i7", 13);
    play_all(&mut g, &moves[..12]);
    let s = g.streaks(Color::Black);
    assert_eq!(s.chases.len(), 1);
    assert_eq!((s.chases[0].streak.len, s.chases[0].streak.limit), (6, 6));
    play(&mut g, &moves[12]);
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::White, EndReason::PerpetualChase))
    );
}

// ------------------------------------------------------------ §6, §8 --

/// Quiet shuffles with a crossed-soldier advance by Red at plies 25, 85,
/// 145, 205 and by Black at 56, 116, 176, 236: nothing checks or chases.
fn long_quiet_game(plies: usize) -> Vec<String> {
    let (mut red_rook, mut black_rook) = ("a1", "i10");
    let (mut red_soldier, mut black_soldier) = (6u8, 5u8);
    let mut out = Vec::new();
    for ply in 1..=plies {
        let m = if [25, 85, 145, 205].contains(&ply) {
            red_soldier += 1;
            format!("c{}c{}", red_soldier - 1, red_soldier)
        } else if [56, 116, 176, 236].contains(&ply) {
            black_soldier -= 1;
            format!("g{}g{}", black_soldier + 1, black_soldier)
        } else if ply % 2 == 1 {
            let to = if red_rook == "a1" { "b1" } else { "a1" };
            let m = format!("{red_rook}{to}");
            red_rook = to;
            m
        } else {
            let to = if black_rook == "i10" { "h10" } else { "i10" };
            let m = format!("{black_rook}{to}");
            black_rook = to;
            m
        };
        out.push(m);
    }
    out
}

const QUIET: &str = "5k2r/9/9/9/2P6/6p2/9/9/9/R2K5 w - - 0 1";

#[test]
fn the_effective_rule_draws_at_240_effective_plies() {
    let moves = long_quiet_game(240);
    let mut g = game(QUIET);
    let reports = play_all(&mut g, &moves[..239]);
    assert!(reports.iter().all(|r| r.effective && !r.is_forcing()));
    assert_eq!(g.outcome(), None);
    play(&mut g, &moves[239]);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::EffectiveRule)));
    let c = g.counters();
    assert_eq!(
        (c.total_plies, c.progress_plies, c.effective_plies),
        (240, 4, 240)
    );
}

#[test]
fn the_progress_rule_counts_moves_of_both_sides_or_plies_with_k2() {
    let moves = long_quiet_game(24);
    let mut g = game(QUIET);
    play_all(&mut g, &moves);
    assert_eq!(g.outcome(), None);
    let mut g = game_with(
        "5k2r/9/9/9/2P6/6p2/9/9/9/R2K5 w - - 6 1",
        XiangqiConfig {
            move_unit: MoveUnit::Ply,
            ..XiangqiConfig::default()
        },
    );
    play_all(&mut g, &moves);
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::ProgressRule)));
    assert_eq!(g.end_ply(), Some(24));
    assert_eq!(g.counters().progress_plies, 30);
}

#[test]
fn the_crossing_step_is_not_progress_unless_k3() {
    let fen = "3k5/9/9/9/9/4P4/9/9/9/5K3 w - - 7 1";
    let mut g = game(fen);
    let r = play(&mut g, "e5e6");
    assert!(!r.progress);
    assert_eq!(g.counters().progress_plies, 8);
    play(&mut g, "d10d9");
    assert!(play(&mut g, "e6e7").progress);
    assert_eq!(g.counters().progress_plies, 0);
    let mut g = game_with(
        fen,
        XiangqiConfig {
            crossing_step_is_progress: true,
            ..XiangqiConfig::default()
        },
    );
    assert!(play(&mut g, "e5e6").progress);
    assert_eq!(g.counters().progress_plies, 0);
}

#[test]
fn a_chase_and_its_reply_are_not_effective() {
    let mut g = game("3k5/9/9/9/9/9/6c2/4NC3/9/4K4 w - - 0 1");
    let r1 = play(&mut g, "f3f2");
    let r2 = play(&mut g, "d10d9");
    // The horse still attacks g4, but that threat is not new.
    let r3 = play(&mut g, "e1f1");
    assert_eq!(
        (r1.effective, r2.effective, r3.effective),
        (false, false, true)
    );
    assert!(r3.chased.is_empty());
    assert_eq!(g.counters().effective_plies, 1);
}

#[test]
fn the_moves_rule_draws_at_600_plies() {
    let mut g = game("5k2r/9/9/9/2P6/6p2/9/9/9/R2K5 b - - 0 300");
    assert_eq!(g.counters().total_plies, 599);
    play(&mut g, "i10h10");
    assert_eq!(g.outcome(), Some(Outcome::draw(EndReason::MovesRule)));
}

#[test]
fn checkmate_beats_a_draw_counter_on_the_same_ply() {
    let mut g = game("r3k4/9/9/9/9/9/9/9/9/3K5 b - - 0 300");
    let r = play(&mut g, "a10d10");
    assert_eq!(g.counters().total_plies, 600);
    let mate = Outcome::win(Color::Black, EndReason::Checkmate);
    assert_eq!((g.outcome(), r.outcome), (Some(mate), Some(mate)));
}

#[test]
fn a_finished_start_position_and_refused_moves() {
    // Stalemate in the FEN itself: over at ply 0, Black (to move) lost.
    let mut g = game("3k5/R8/9/9/9/9/9/9/9/4K4 b - - 0 1");
    assert_eq!(g.end_ply(), Some(0));
    let lost = Outcome::win(Color::White, EndReason::Stalemate);
    assert_eq!(g.outcome(), Some(lost));
    assert!(g.legal_moves().is_empty());
    let any = Move::new(sq("d10"), sq("e10"));
    assert_eq!(
        g.play(any),
        Err(XiangqiPlayError::GameOver { outcome: lost })
    );
    // An illegal move leaves the game unchanged.
    let mut g = XiangqiGame::start();
    assert_eq!(g.last_move_wxf(), None);
    play(&mut g, "h3e3");
    assert_eq!(g.last_move_wxf().as_deref(), Some("C2=5"));
    assert_eq!(
        g.position_before_last_move().map(Xiangqi::fen),
        Some(Xiangqi::start().fen())
    );
    let mut g = XiangqiGame::start();
    let bad = Move::new(sq("a1"), sq("a5"));
    assert_eq!(g.play(bad), Err(XiangqiPlayError::Illegal { mv: bad }));
    assert_eq!(g.ply_count(), 0);
}

#[test]
fn piece_ids_follow_the_pieces() {
    let mut g = game("5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1");
    let rook = g.piece_ids().get(sq("h9"));
    assert!(rook.is_some());
    play(&mut g, "h9h10");
    assert_eq!(g.piece_ids().get(sq("h10")), rook);
    assert_eq!(g.piece_ids().get(sq("h9")), None);
    assert_eq!(
        rook.and_then(|id| g.piece_ids().square(id)),
        Some(sq("h10"))
    );
}

#[test]
fn forbid_mode_refuses_the_losing_check() {
    let fen = "5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1";
    let moves = cycle("h9h10 f10f9 h10h9 f9f10", 12);
    let mut g = game_with(
        fen,
        XiangqiConfig {
            violation_mode: ViolationMode::Forbid,
            ..XiangqiConfig::default()
        },
    );
    play_all(&mut g, &moves);
    let seventh = mv(&g, "h9h10");
    assert!(matches!(
        g.play(seventh),
        Err(XiangqiPlayError::Forbidden { .. })
    ));
    let legal = g.legal_moves();
    assert!(!legal.contains(&seventh));
    assert!(legal.iter().all(|&m| !g.position().gives_check(m)));
    assert_eq!(legal.len(), g.position().legal_moves().len() - 2);
    assert_eq!(g.outcome(), None);
}

#[test]
fn k1_needs_a_repeated_position() {
    // Seven checks by one chariot; the position after the 7th (chariot
    // e10, general e9) is new, the one after the 8th (f10 / f9) occurred
    // after ply 3.
    let fen = "5k3/9/9/9/9/9/9/9/9/3K3R1 w - - 0 1";
    let moves: Vec<String> = "h1h10 f10f9 h10f10 f9e9 f10f9 e9e10 f9f10 e10e9 f10f9 e9e10 \
                              f9f10 e10e9 f10e10 e9f9 e10f10"
        .split_whitespace()
        .map(str::to_owned)
        .collect();
    let mut g = game(fen);
    play_all(&mut g, &moves[..13]);
    assert_eq!(g.end_ply(), Some(13), "the count alone decides by default");
    let mut g = game_with(
        fen,
        XiangqiConfig {
            require_repetition: true,
            ..XiangqiConfig::default()
        },
    );
    play_all(&mut g, &moves[..13]);
    assert_eq!(g.outcome(), None, "no repetition yet");
    assert_eq!(g.streaks(Color::White).check.len, 7);
    play_all(&mut g, &moves[13..]);
    assert_eq!(g.end_ply(), Some(15));
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, EndReason::PerpetualCheck))
    );
}

// ------------------------------------------------------------ warnings --

/// Every warning must predict exactly what playing the move does.
fn assert_warnings_match_play(g: &XiangqiGame) {
    let mover = g.turn();
    let warnings = g.move_warnings();
    assert_eq!(warnings.len(), g.position().legal_moves().len());
    for w in warnings {
        let mut copy = g.clone();
        let report = copy.play(w.mv).unwrap_or_else(|e| panic!("{}: {e}", w.mv));
        assert_eq!(w.outcome, report.outcome, "{}", w.mv);
        assert_eq!(w.outcome, copy.outcome(), "{}", w.mv);
        let s = copy.streaks(mover);
        assert_eq!(w.check.unwrap_or_default(), s.check, "{}", w.mv);
        assert_eq!(w.chases, s.chases, "{}", w.mv);
    }
}

#[test]
fn warnings_announce_the_losing_check_before_it_is_played() {
    let mut g = game("5k3/7R1/5a3/9/9/9/9/9/9/4K4 w - - 0 1");
    let moves = cycle("h9h10 f10f9 h10h9 f9f10", 12);
    play_all(&mut g, &moves[..4]);
    let w = g.warning(mv(&g, "h9h10")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(w.outcome, None);
    let check = w.check.unwrap_or_else(|| panic!("a check"));
    assert_eq!((check.len, check.limit), (3, 6));
    assert_eq!(names(check.pieces), ["h10"]);
    play_all(&mut g, &moves[4..]);
    let before = g.ply_count();
    let warnings = g.move_warnings();
    assert_eq!(g.ply_count(), before, "warnings do not play");
    let losing = Outcome::win(Color::Black, EndReason::PerpetualCheck);
    for w in &warnings {
        let gives_check = g.position().gives_check(w.mv);
        assert_eq!(w.outcome == Some(losing), gives_check, "{}", w.mv);
        assert_eq!(w.loses(Color::White), gives_check, "{}", w.mv);
        assert_eq!(
            w.check.map(|c| (c.len, c.limit)),
            gives_check.then_some((7, 6))
        );
        assert!(!w.forbidden);
    }
    assert_eq!(warnings.iter().filter(|w| w.outcome.is_some()).count(), 2);
    assert_warnings_match_play(&g);
}

#[test]
fn warnings_count_chases_and_mark_refused_moves() {
    let fen = "3k5/9/3a5/9/9/9/8r/7N1/5K3/9 w - - 0 1";
    let moves = cycle("h3g5 i4i1 g5h3 i1i4", 12);
    let mut g = game(fen);
    play_all(&mut g, &moves);
    let w = g.warning(mv(&g, "h3g5")).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        w.outcome,
        Some(Outcome::win(Color::Black, EndReason::PerpetualChase))
    );
    assert_eq!(w.chases.len(), 1);
    assert_eq!(w.chases[0].target, sq("i4"));
    assert_eq!((w.chases[0].streak.len, w.chases[0].streak.limit), (7, 6));
    assert_warnings_match_play(&g);

    let mut g = game_with(
        fen,
        XiangqiConfig {
            violation_mode: ViolationMode::Forbid,
            ..XiangqiConfig::default()
        },
    );
    play_all(&mut g, &moves);
    let w = g.warning(mv(&g, "h3g5")).unwrap_or_else(|e| panic!("{e}"));
    assert!(w.forbidden && w.loses(Color::White));
    assert!(!g.legal_moves().contains(&w.mv));
}

#[test]
fn warnings_match_play_along_mixed_games() {
    for (fen, moves) in [
        (
            "3k5/5R3/9/9/9/4R4/9/9/9/3C1K3 w - - 0 1",
            cycle("f9f10 d10d9 e5d5 d9e9 d5e5 e9d9 f10f9 d9d10", 36),
        ),
        (
            "3k5/9/9/9/9/5p3/9/5p3/5K3/5C3 w - - 0 1",
            cycle("f2e2 f3e3 e2f2 e3f3", 12),
        ),
        (
            "4k4/9/9/4p4/9/9/4Pr3/9/7N1/4K4 b - - 0 1",
            "f4h4 h2f3 h4h3 f3g5 h3g3 g5i4 g3g4 i4h2 g4h4 h2f3 h4h3 f3g5"
                .split_whitespace()
                .map(str::to_owned)
                .collect(),
        ),
    ] {
        let mut g = game(fen);
        for (i, m) in moves.iter().enumerate() {
            if i % 3 == 0 || i + 1 == moves.len() {
                assert_warnings_match_play(&g);
            }
            play(&mut g, m);
        }
        assert_warnings_match_play(&g);
    }
}

#[test]
fn k5_draws_when_no_side_can_mate() {
    let fen = "4k4/9/9/9/9/9/9/3r5/4A4/5K3 w - - 0 1";
    let k5 = XiangqiConfig {
        insufficient_material_draw: true,
        ..XiangqiConfig::default()
    };
    let mut g = game(fen);
    play(&mut g, "e2d3");
    assert_eq!(g.outcome(), None, "off by default");
    let mut g = game_with(fen, k5);
    assert_eq!(g.outcome(), None, "Black still has a chariot");
    play(&mut g, "e2d3");
    assert_eq!(
        g.outcome(),
        Some(Outcome::draw(EndReason::InsufficientMaterial))
    );
    // Generals, advisors and elephants only, from the start.
    let g = game_with("4k4/9/9/9/9/9/9/4B4/4A4/5K3 w - - 0 1", k5);
    assert_eq!(g.end_ply(), Some(0));
    // A single soldier is enough material, even on the last rank.
    let g = game_with("3kP4/9/9/9/9/9/9/9/9/5K3 b - - 0 1", k5);
    assert_eq!(g.outcome(), None);
}

#[test]
fn four_checking_pieces_are_capped_at_eighteen_unless_k8_linear() {
    // Cannon i10 joins the first check of every cycle over the screen
    // f10, cannon d1 the second: four pieces in all.
    let fen = "3k4C/5R3/9/9/9/4R4/9/9/9/3C1K3 w - - 0 1";
    let moves = cycle("f9f10 d10d9 e5d5 d9e9 d5e5 e9d9 f10f9 d9d10", 49);
    let mut g = game(fen);
    let reports = play_all(&mut g, &moves[..37]);
    assert_eq!(names(reports[0].checkers), ["f10", "i10"]);
    assert_eq!(g.streaks(Color::White).check.pieces.count(), 4);
    assert_eq!(g.end_ply(), Some(37));
    let mut g = game_with(
        fen,
        XiangqiConfig {
            limit_cap: LimitCap::Linear,
            ..XiangqiConfig::default()
        },
    );
    play_all(&mut g, &moves[..48]);
    assert_eq!(g.outcome(), None);
    assert_eq!(g.streaks(Color::White).check.limit, 24);
    play(&mut g, &moves[48]);
    assert_eq!(g.end_ply(), Some(49));
    assert_eq!(
        g.outcome(),
        Some(Outcome::win(Color::Black, EndReason::PerpetualCheck))
    );
}

/// The record no longer keeps the per-ply reports: `plies()` replays the
/// game. The replayed reports must be those `play` returned, in random
/// games long enough to end by the rules, under both violation modes.
#[test]
fn replayed_ply_reports_equal_those_of_play() {
    let mut state = 0x0dd_ba11_u64;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut forcing = 0;
    for mode in [ViolationMode::Lose, ViolationMode::Forbid] {
        for _ in 0..4 {
            let config = XiangqiConfig {
                violation_mode: mode,
                ..XiangqiConfig::default()
            };
            let mut game = XiangqiGame::with_config(Xiangqi::start(), config);
            let mut reports: Vec<PlyReport> = Vec::new();
            while game.outcome().is_none() && reports.len() < 300 {
                let moves = game.legal_moves();
                let mv = moves[(rand() % moves.len() as u64) as usize];
                let report = game.play(mv).unwrap();
                forcing += usize::from(report.is_forcing());
                reports.push(report);
            }
            assert_eq!(game.plies(), reports);
        }
    }
    // Checks and chases came up, so the reports are not all trivial.
    assert!(forcing > 20, "{forcing}");
}
