//! Start positions for the targets that walk games: the variant's start
//! and a few positions of the public perft suites (`shared/perft/*.epd`),
//! chosen for castling, en passant, promotions, checks and explosions.
//! Kept in the source so the targets do not depend on where `shared/` is.

/// Standard chess.
pub const CHESS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "8/8/8/5k2/3p4/8/4P3/4K3 w - - 0 1",
    "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1",
    "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1",
    "8/6kR/8/8/8/bq6/1rqqqqqq/K1nqnbrq b - - 0 1",
    "2k5/8/8/4P2P/8/1N2K3/8/8 b - - 0 1",
];

/// Horde.
pub const HORDE: &[&str] = &[
    "rnbqkbnr/pppppppp/8/1PP2PP1/PPPPPPPP/PPPPPPPP/PPPPPPPP/PPPPPPPP w kq - 0 1",
    "4k3/pp4q1/3P2p1/8/P3PP2/PPP2r2/PPP5/PPPP4 b - - 0 1",
    "rnbqkbnr/6p1/2p1Pp1P/P1PPPP2/Pp4PP/1p2PPPP/1P2PPPP/PP1nPPPP b kq a3 0 18",
    "4k3/8/8/8/8/p1p5/1P6/1P6 w - - 0 1",
    "4k3/8/8/8/8/8/1p1p4/P1P1P3 b - - 0 1",
    "r3k2r/3P4/8/8/8/8/8/PPP5 b kq - 0 1",
    "8/5k2/8/8/8/4NN2/8/8 w - - 0 1",
    "rnbqkRn1/ppp3p1/4P2r/1PPp2pP/PPPP1Pp1/PPPPPPPP/PPPPPPPP/PPPPPPPP b q - 0 7",
];

/// Atomic.
pub const ATOMIC: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rn2kb1r/1pp1p2p/p2q1pp1/3P4/2P3b1/4PN2/PP3PPP/R2QKB1R b KQkq - 0 1",
    "8/8/8/3kK3/8/8/8/R6r w - - 0 1",
    "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1",
    "8/8/8/8/8/8/5kq1/R3K2R w KQ - 0 1",
    "8/4k3/8/3pP3/8/8/8/4K3 w - d6 0 1",
    "r3k3/1P6/8/8/8/8/8/4K3 w q - 0 1",
    "rn2kb1r/2p1p2p/p2q1pp1/1pPP4/Q7/4P3/PP3P1P/R3K3 w Qkq b6 0 11",
    "8/8/1Q2pk2/8/8/8/3K4/1n6 w - - 0 1",
];

/// Xiangqi.
pub const XIANGQI: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "4k4/9/4n4/9/9/4C4/9/9/9/3K5 b - - 0 1",
    "1nba1kb2/2r1a4/7Rr/pCp1n1p2/4pP3/P1P1c1B1p/R5P2/1C2BA3/4A4/4K2N1 w - - 7 36",
    "4k4/9/9/2p1P1p2/9/9/9/9/9/3K5 w - - 0 1",
    "3k5/4a4/5a3/9/9/9/9/9/4R4/4K4 w - - 0 1",
    "2b1k4/9/9/9/2b6/4P4/2P6/4K4/9/9 b - - 5 3",
];
