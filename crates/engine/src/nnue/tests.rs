//! Unit tests of the network: the built-in file, the symmetry the
//! perspective design promises, a sanity check of what it learnt, and
//! the trainer on a little self-play data.

use chessplayx_rules::{Color, Variant, chess::Chess};

use super::{FILE_BYTES, Network, chess, train};
use crate::{
    Evaluate,
    tune::{self, GenOptions},
};

fn pos(fen: &str) -> Chess {
    Chess::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"))
}

/// The hand-set evaluation plus the chess net's correction (what level
/// 8 plays with when the net is switched on).
fn net_eval(fen: &str) -> i32 {
    let p = pos(fen);
    let net = chess().unwrap_or_else(|| unreachable!("the built-in net parses"));
    p.evaluate() + net.evaluate(p.board(), p.turn())
}

/// `s` with upper and lower case swapped: White's pieces become Black's.
pub(crate) fn swap_case(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_uppercase() {
                c.to_ascii_lowercase()
            } else {
                c.to_ascii_uppercase()
            }
        })
        .collect()
}

/// A FEN's piece placement mirrored top to bottom with the colours
/// swapped (any board size: the rows are reversed).
pub(crate) fn flip_placement(placement: &str) -> String {
    placement
        .split('/')
        .rev()
        .map(swap_case)
        .collect::<Vec<_>>()
        .join("/")
}

/// The same position with the colours swapped and the board mirrored
/// top to bottom (so the other side has the move and the same game).
fn flipped(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let board = flip_placement(f[0]);
    let turn = if f[1] == "w" { "b" } else { "w" };
    let castling = if f[2] == "-" {
        "-".to_owned()
    } else {
        let mut c: Vec<char> = swap_case(f[2]).chars().collect();
        c.sort_unstable();
        c.into_iter().collect()
    };
    let ep = if f[3] == "-" {
        "-".to_owned()
    } else {
        let (file, rank) = f[3].split_at(1);
        format!("{file}{}", if rank == "3" { "6" } else { "3" })
    };
    format!("{board} {turn} {castling} {ep} {} {}", f[4], f[5])
}

#[test]
fn the_built_in_nets_parse_and_have_their_size() {
    assert_eq!(super::CHESS_BYTES.len(), FILE_BYTES);
    assert!(chess().is_some());
    assert_eq!(super::HORDE_BYTES.len(), FILE_BYTES);
    assert!(super::horde().is_some());
    assert_eq!(super::ATOMIC_BYTES.len(), FILE_BYTES);
    assert!(super::atomic().is_some());
    assert_eq!(super::XIANGQI_BYTES.len(), super::file_bytes(1260));
    assert!(super::xiangqi().is_some());
}

#[test]
fn broken_files_are_refused_without_panic() {
    let good = super::CHESS_BYTES;
    assert!(Network::<super::Board8>::parse(&good[..good.len() - 1]).is_err());
    assert!(Network::<super::Board8>::parse(&[]).is_err());
    assert!(Network::<super::Board8>::parse(b"CPXNNUE1\x01\0\0\0\x80\0\0\0").is_err());
    let mut bad = good.to_vec();
    bad[0] = b'X';
    assert!(Network::<super::Board8>::parse(&bad).is_err());
}

#[test]
fn the_evaluation_is_colour_symmetric() {
    for fen in [
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 5",
        "8/5pk1/6p1/8/3R4/6P1/5PKP/8 w - - 0 40",
        "4k3/8/8/8/8/8/3QK3/8 b - - 0 1",
    ] {
        let g = flipped(fen);
        assert_ne!(pos(fen).turn(), pos(&g).turn());
        assert_eq!(net_eval(fen), net_eval(&g), "{fen} / {g}");
    }
}

#[test]
fn a_clearly_won_position_scores_clearly_positive() {
    // White: queen and rook up; from either side's move, White is far ahead.
    let fen = "4k3/pppppppp/8/8/8/8/PPPPPPPP/RQ2K2R w K - 0 1";
    assert!(net_eval(fen) > 300, "{}", net_eval(fen));
    let black = "4k3/pppppppp/8/8/8/8/PPPPPPPP/RQ2K2R b K - 0 1";
    assert!(net_eval(black) < -300, "{}", net_eval(black));
    let start = net_eval("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    assert!(start.abs() < 100, "{start}");
}

/// Six short self-play games of `variant` with search scores, as
/// `tune gen --with-score` writes them.
fn self_play_data(variant: Variant, seed: u64) -> String {
    let mut data = Vec::new();
    let opts = GenOptions {
        games: 6,
        nodes: 300,
        random_plies: 8,
        max_plies: 200,
        seed,
        with_score: true,
        with_net: false,
    };
    tune::generate(variant, &opts, &mut data, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
    String::from_utf8(data).unwrap_or_else(|e| unreachable!("{e}"))
}

/// A short training run for the tests.
fn small_training() -> train::TrainOptions {
    train::TrainOptions {
        epochs: 8,
        batch: 64,
        ..train::TrainOptions::default()
    }
}

/// Trains on `text` and checks that the training loss fell.
fn train_and_check_the_loss_falls(
    variant: Variant,
    text: &str,
    topts: &train::TrainOptions,
) -> train::Trained {
    let t = train::train(variant, text, topts, &mut |_| {}).unwrap_or_else(|e| unreachable!("{e}"));
    let (first, last) = (t.epochs[0], t.epochs[t.epochs.len() - 1]);
    assert!(last.train_loss < first.train_loss, "{first} / {last}");
    t
}

#[test]
fn the_trainer_lowers_the_loss_and_writes_a_readable_file() {
    let text = self_play_data(Variant::Chess, 3);
    assert!(text.lines().all(|l| l.split(';').count() == 3), "{text}");
    let topts = small_training();
    let t = train_and_check_the_loss_falls(Variant::Chess, &text, &topts);
    let net = Network::<super::Board8>::parse(&t.file).unwrap_or_else(|e| unreachable!("{e}"));
    // Same file, same seed: training is deterministic.
    let again = train::train(Variant::Chess, &text, &topts, &mut |_| {})
        .unwrap_or_else(|e| unreachable!("{e}"));
    assert_eq!(t.file, again.file);
    let p = pos("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let _ = net.evaluate(p.board(), Color::White);
    // A chess FEN is not a Xiangqi position.
    assert!(train::train(Variant::Xiangqi, &text, &topts, &mut |_| {}).is_err());
    assert!(train::train(Variant::Chess, "8/8 w;1;x", &topts, &mut |_| {}).is_err());
}

#[test]
fn the_trainer_learns_from_atomic_games() {
    let text = self_play_data(Variant::Atomic, 5);
    let t = train_and_check_the_loss_falls(Variant::Atomic, &text, &small_training());
    assert!(Network::<super::Board8>::parse(&t.file).is_ok());
}

/// `label-fsf.py` writes `<fen>;<cp>;<p>`, with a win probability (or a
/// game result) in the last field: the trainer must read a fraction
/// there, and with λ = 1 the net must learn the reference's score alone,
/// whatever the last field says (the Horde self-play results are a poor
/// judge, which is why the reference labels them).
#[test]
fn the_trainer_reads_reference_labels_and_lambda_one_ignores_the_last_field() {
    let text = self_play_data(Variant::Horde, 7);
    let relabelled: String = text
        .lines()
        .enumerate()
        .map(|(i, l)| {
            let (head, _) = l.rsplit_once(';').unwrap_or_else(|| unreachable!("{l}"));
            format!("{head};{}\n", if i % 2 == 0 { "0.8731" } else { "0.0125" })
        })
        .collect();
    let topts = train::TrainOptions {
        lambda: 1.0,
        ..small_training()
    };
    let t = train_and_check_the_loss_falls(Variant::Horde, &relabelled, &topts);
    let plain = train::train(Variant::Horde, &text, &topts, &mut |_| {})
        .unwrap_or_else(|e| unreachable!("{e}"));
    assert_eq!(t.file, plain.file, "λ = 1 must not read the last field");
    let mixed = train::TrainOptions {
        lambda: 0.5,
        ..small_training()
    };
    let a = train::train(Variant::Horde, &relabelled, &mixed, &mut |_| {})
        .unwrap_or_else(|e| unreachable!("{e}"));
    let b = train::train(Variant::Horde, &text, &mixed, &mut |_| {})
        .unwrap_or_else(|e| unreachable!("{e}"));
    assert_ne!(a.file, b.file, "λ < 1 must read the last field");
}

/// Plays 20 random games of up to 60 plies from `fen` and checks at each
/// position that the accumulators updated from the previous evaluation
/// give what a refresh gives. Returns the most pieces one move removed.
fn update_equals_refresh<R: chessplayx_rules::chess::Rules>(
    net: &Network,
    fen: &str,
    seed: u64,
) -> u32 {
    let mut most_removed = 0;
    let mut acc = super::Accumulator::default();
    let mut rng = crate::Rng::new(seed);
    let mut moves = Vec::new();
    for _ in 0..20 {
        let mut p = chessplayx_rules::chess::Position::<R>::from_fen(fen)
            .unwrap_or_else(|e| unreachable!("{fen}: {e}"));
        for _ in 0..60 {
            // A child, then sometimes a jump back to an earlier kind of
            // position: both paths (update and refresh) are taken.
            assert_eq!(
                net.evaluate_cached(p.board(), p.turn(), &mut acc),
                net.evaluate(p.board(), p.turn()),
                "{p}"
            );
            moves.clear();
            p.legal_moves_into(&mut moves);
            if moves.is_empty() || p.outcome().is_some() {
                break;
            }
            let n = u32::try_from(moves.len()).unwrap_or(u32::MAX);
            let before = p.board().occupied().count();
            p.play(moves[rng.below(n) as usize]);
            most_removed = most_removed.max(before - p.board().occupied().count());
        }
    }
    most_removed
}

#[test]
fn updated_accumulators_give_what_a_refresh_gives() {
    let net = chess().unwrap_or_else(|| unreachable!("the built-in net parses"));
    let kiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let removed = update_equals_refresh::<chessplayx_rules::chess::Standard>(net, kiwipete, 11);
    assert_eq!(removed, 1);
}

#[test]
fn updated_accumulators_stay_exact_through_explosions() {
    use chessplayx_rules::chess::Atomic;

    // An explosion removes the capturer, the captured piece and every
    // non-pawn around them: several pieces of both colours in one move.
    let net = super::atomic().unwrap_or_else(|| unreachable!("the built-in net parses"));
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let open = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4";
    let removed = update_equals_refresh::<Atomic>(net, start, 12)
        .max(update_equals_refresh::<Atomic>(net, open, 13));
    // The games did blow up several pieces at once (a capture in chess
    // removes one).
    assert!(removed >= 3, "{removed}");
}

#[test]
fn level_8_plays_horde_and_atomic_with_their_nets_and_chess_without() {
    use chessplayx_rules::chess::{AtomicChess, HordeChess, Standard};

    use crate::{PositionHistory, SearchLimits, SearchOptions, Searcher, eval::Eval8};

    let horde = HordeChess::start();
    let mut acc = super::Accumulator::default();
    assert!(horde.net_evaluate(&mut acc).is_some());
    assert!(AtomicChess::start().net_evaluate(&mut acc).is_some());
    // Chess's level 8 has no net: it plays its own weights alone.
    let start = Chess::start();
    assert_eq!(
        start.net_evaluate(&mut acc),
        Some(Standard::evaluate_with(&start, &Standard::TOP_PARAMS))
    );
    let mut searcher = Searcher::<HordeChess>::new(1);
    let r = searcher.search(
        &horde,
        &PositionHistory::new(),
        &SearchLimits::nodes(2000),
        SearchOptions::default(),
        &mut |_| {},
    );
    let mut moves = Vec::new();
    horde.legal_moves_into(&mut moves);
    assert!(r.best_move.is_some_and(|m| moves.contains(&m)));
}

/// A score scale of k trains on the targets the scores times k would
/// give: the same file as the data rewritten, and another than k = 1.
/// A scale that is not a finite number above zero is refused.
#[test]
fn the_score_scale_multiplies_every_score() {
    let text = self_play_data(Variant::Horde, 7);
    let doubled: String = text
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split(';').collect();
            if f.len() != 3 {
                return format!("{l}\n");
            }
            let score: f32 = f[1].trim().parse().unwrap_or_else(|e| unreachable!("{e}"));
            format!("{};{};{}\n", f[0], score * 2.0, f[2])
        })
        .collect();
    let scaled = train::TrainOptions {
        score_scale: 2.0,
        ..small_training()
    };
    let a = train::train(Variant::Horde, &text, &scaled, &mut |_| {})
        .unwrap_or_else(|e| unreachable!("{e}"));
    let b = train::train(Variant::Horde, &doubled, &small_training(), &mut |_| {})
        .unwrap_or_else(|e| unreachable!("{e}"));
    let c = train::train(Variant::Horde, &text, &small_training(), &mut |_| {})
        .unwrap_or_else(|e| unreachable!("{e}"));
    assert_eq!(a.file, b.file);
    assert_ne!(a.file, c.file);
    for bad in [0.0, -1.0, f32::NAN, f32::INFINITY] {
        let opts = train::TrainOptions {
            score_scale: bad,
            ..small_training()
        };
        assert!(matches!(
            train::train(Variant::Horde, &text, &opts, &mut |_| {}),
            Err(train::TrainError::BadScoreScale(_))
        ));
    }
}
