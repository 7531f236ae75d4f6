//! Unit tests of Xiangqi's network: its feature map's symmetry, the
//! accumulator update along random games, the weight file's shape
//! checks, the trainer on Xiangqi games and level 8's hook.

use std::collections::BTreeSet;

use chessplayx_rules::{Color, Game, Variant, xiangqi::Xiangqi};

use super::{
    Accumulator, Board8, Features, NetError, Network, Xiangqi90, file_bytes, train, xiangqi,
};
use crate::{
    Evaluate, Rng,
    tune::{self, GenOptions},
};

fn pos(fen: &str) -> Xiangqi {
    Xiangqi::from_fen(fen).unwrap_or_else(|e| unreachable!("{fen}: {e}"))
}

/// The position with the colours swapped and the board mirrored top to
/// bottom, the other side to move: the same game seen from the other side.
fn flipped(fen: &str) -> String {
    let f: Vec<&str> = fen.split(' ').collect();
    let turn = if f[1] == "w" { "b" } else { "w" };
    let board = super::tests::flip_placement(f[0]);
    format!("{board} {turn} {}", f[2..].join(" "))
}

/// A network with random weights of every layer (the built-in one may be
/// small in places), for `F`'s features.
fn random_net<F: Features>(seed: u64) -> Network<F> {
    let mut rng = Rng::new(seed);
    let mut uniform = |scale: f32| {
        let u = (rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32;
        (u * 2.0 - 1.0) * scale
    };
    let w1: Vec<f32> = (0..F::INPUTS * super::HIDDEN)
        .map(|_| uniform(0.05))
        .collect();
    let b1: Vec<f32> = (0..super::HIDDEN).map(|_| 0.2 + uniform(0.2)).collect();
    let w2: Vec<f32> = (0..2 * super::HIDDEN).map(|_| uniform(1.0)).collect();
    Network::parse(&Network::<F>::quantise(&w1, &b1, &w2, 0.01))
        .unwrap_or_else(|e| unreachable!("{e}"))
}

const FENS: [&str; 4] = [
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/9/P1P1P1P1P/1CN1C1N2/9/R1BAKAB1R b - - 4 4",
    "3ak4/4a4/4b4/9/2p6/9/9/4B4/4A4/2RAK4 w - - 0 40",
    "2bak4/4a4/4b1n2/p3p3p/2p6/6P2/P3P3P/2N1B4/3RA4/2BAK1c2 b - - 0 30",
];

/// Both perspectives' feature sets of `fen`.
fn feature_sets(fen: &str) -> (BTreeSet<usize>, BTreeSet<usize>) {
    let (mut w, mut b) = (BTreeSet::new(), BTreeSet::new());
    Xiangqi90::for_each_feature(&Xiangqi90::pieces(pos(fen).board()), |fw, fb| {
        assert!(fw < Xiangqi90::INPUTS && fb < Xiangqi90::INPUTS);
        w.insert(fw);
        b.insert(fb);
    });
    (w, b)
}

#[test]
fn a_position_and_its_flip_give_the_same_features_from_the_other_side() {
    for fen in FENS {
        let g = flipped(fen);
        let (w, b) = feature_sets(fen);
        let (gw, gb) = feature_sets(&g);
        assert_eq!(w.len(), pos(fen).board().occupied().count() as usize);
        assert_eq!(w, gb, "{fen} / {g}");
        assert_eq!(b, gw, "{fen} / {g}");
        // Not trivially so: off the symmetric start the two
        // perspectives differ.
        if fen != FENS[0] {
            assert_ne!(w, b, "{fen}");
        }
        // And the network agrees, side to move for side to move.
        let net = random_net::<Xiangqi90>(3);
        let (p, q) = (pos(fen), pos(&g));
        assert_ne!(p.turn(), q.turn());
        assert_eq!(
            net.evaluate(p.board(), p.turn()),
            net.evaluate(q.board(), q.turn()),
            "{fen} / {g}"
        );
    }
}

#[test]
fn the_mirror_flips_files_only() {
    // Red's general on e1 stays; the left chariot (a1) goes to i1.
    let f = |c, role, sq| Xiangqi90::feature(Color::White, c, role, sq);
    assert_eq!(
        Xiangqi90::mirror(f(Color::White, 0, 4)),
        f(Color::White, 0, 4)
    );
    assert_eq!(
        Xiangqi90::mirror(f(Color::White, 4, 0)),
        f(Color::White, 4, 8)
    );
    assert_eq!(
        Xiangqi90::mirror(f(Color::Black, 6, 9 * 6 + 2)),
        f(Color::Black, 6, 9 * 6 + 6)
    );
    for i in 0..Xiangqi90::INPUTS {
        let m = Xiangqi90::mirror(i);
        assert!(m < Xiangqi90::INPUTS && m / 90 == i / 90, "{i} → {m}");
        assert_eq!(Xiangqi90::mirror(m), i);
    }
}

#[test]
fn updated_accumulators_give_what_a_refresh_gives_in_xiangqi() {
    let net = random_net::<Xiangqi90>(5);
    let mut acc = Accumulator::default();
    let mut rng = Rng::new(21);
    let mut moves = Vec::new();
    let mut captures = 0;
    for game in 0..20 {
        let mut p = pos(FENS[game % 2]);
        for _ in 0..80 {
            assert_eq!(
                net.evaluate_cached(p.board(), p.turn(), &mut acc),
                net.evaluate(p.board(), p.turn()),
                "{}",
                p.fen()
            );
            moves.clear();
            p.legal_moves_into(&mut moves);
            if moves.is_empty() || p.outcome().is_some() {
                break;
            }
            let n = u32::try_from(moves.len()).unwrap_or(u32::MAX);
            let mv = moves[rng.below(n) as usize];
            captures += u32::from(p.is_capture(mv));
            Game::play(&mut p, mv);
        }
    }
    // Captures (a piece gone) as well as quiet moves were updated.
    assert!(captures > 20, "{captures}");
}

#[test]
fn weight_files_of_the_wrong_shape_are_refused() {
    let xq = Network::<Xiangqi90>::quantise(
        &vec![0.0; Xiangqi90::INPUTS * super::HIDDEN],
        &[0.0; super::HIDDEN],
        &[0.0; 2 * super::HIDDEN],
        0.0,
    );
    assert_eq!(xq.len(), file_bytes(1260));
    assert!(Network::<Xiangqi90>::parse(&xq).is_ok());
    // An 8×8 net is not a Xiangqi net, nor the other way round.
    assert!(matches!(
        Network::<Xiangqi90>::parse(super::CHESS_BYTES),
        Err(NetError::Shape {
            inputs: 768,
            expected: 1260,
            ..
        })
    ));
    assert!(matches!(
        Network::<Board8>::parse(&xq),
        Err(NetError::Shape {
            inputs: 1260,
            expected: 768,
            ..
        })
    ));
    // Cut short, one byte too many, a wrong hidden size, no magic.
    assert!(matches!(
        Network::<Xiangqi90>::parse(&xq[..xq.len() - 1]),
        Err(NetError::Length { .. })
    ));
    let mut long = xq.clone();
    long.push(0);
    assert!(matches!(
        Network::<Xiangqi90>::parse(&long),
        Err(NetError::Length { .. })
    ));
    let mut hidden = xq.clone();
    hidden[12] = 64;
    assert!(matches!(
        Network::<Xiangqi90>::parse(&hidden),
        Err(NetError::Shape { hidden: 64, .. })
    ));
    assert_eq!(
        Network::<Xiangqi90>::parse(&xq[..15]).err(),
        Some(NetError::Magic)
    );
    // Every prefix is refused without a panic.
    for len in (0..xq.len()).step_by(997) {
        assert!(Network::<Xiangqi90>::parse(&xq[..len]).is_err());
    }
}

#[test]
fn the_trainer_learns_from_xiangqi_games() {
    let mut data = Vec::new();
    let opts = GenOptions {
        games: 6,
        nodes: 300,
        random_plies: 8,
        max_plies: 200,
        seed: 7,
        with_score: true,
        with_net: false,
    };
    tune::generate(Variant::Xiangqi, &opts, &mut data, &mut |_| {})
        .unwrap_or_else(|e| unreachable!("{e}"));
    let text = String::from_utf8(data).unwrap_or_else(|e| unreachable!("{e}"));
    let topts = train::TrainOptions {
        epochs: 8,
        batch: 64,
        ..train::TrainOptions::default()
    };
    let t = train::train(Variant::Xiangqi, &text, &topts, &mut |_| {})
        .unwrap_or_else(|e| unreachable!("{e}"));
    let (first, last) = (t.epochs[0], t.epochs[t.epochs.len() - 1]);
    assert!(last.train_loss < first.train_loss, "{first} / {last}");
    assert_eq!(t.file.len(), file_bytes(Xiangqi90::INPUTS));
    assert!(Network::<Xiangqi90>::parse(&t.file).is_ok());
    // Mirrors are training positions too: twice the training lines.
    let lines = crate::tune::data_lines(&text).count();
    assert_eq!(t.sizes.0 + t.sizes.1, lines + t.sizes.0 / 2);
    // A chess FEN is not a Xiangqi position.
    let chess = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1;0;1";
    assert!(train::train(Variant::Xiangqi, chess, &topts, &mut |_| {}).is_err());
}

/// What level 8 plays with: the hand-set evaluation plus the built-in
/// net's correction.
fn net_eval(fen: &str) -> i32 {
    pos(fen)
        .net_evaluate(&mut Accumulator::default())
        .unwrap_or_else(|| unreachable!("Xiangqi has a net"))
}

#[test]
fn the_built_in_net_keeps_a_chariot_up_clearly_won() {
    // Black has lost a chariot: Red is far ahead whoever moves.
    let red = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1";
    let black = "1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR b - - 0 1";
    assert!(net_eval(red) > 500, "{}", net_eval(red));
    assert!(net_eval(black) < -500, "{}", net_eval(black));
    let start = net_eval(FENS[0]);
    assert!(start.abs() < 100, "{start}");
    // The correction is not nothing: it moves some of these positions.
    let moved = FENS
        .iter()
        .filter(|f| net_eval(f) != pos(f).evaluate())
        .count();
    assert!(moved >= 2, "{moved}");
}

#[test]
fn level_8_plays_xiangqi_with_its_net() {
    use crate::{PositionHistory, SearchLimits, SearchOptions, Searcher};

    let net = xiangqi().unwrap_or_else(|| unreachable!("the built-in net parses"));
    let start = Xiangqi::start();
    let mut acc = Accumulator::default();
    assert_eq!(
        start.net_evaluate(&mut acc),
        Some(start.evaluate() + net.evaluate(start.board(), start.turn()))
    );
    let mut searcher = Searcher::<Xiangqi>::new(1);
    let r = searcher.search(
        &start,
        &PositionHistory::new(),
        &SearchLimits::nodes(2000),
        SearchOptions::default(),
        &mut |_| {},
    );
    let mut moves = Vec::new();
    start.legal_moves_into(&mut moves);
    assert!(r.best_move.is_some_and(|m| moves.contains(&m)));
}
