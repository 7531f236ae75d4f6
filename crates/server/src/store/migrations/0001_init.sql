-- Rooms, their seats, their moves (with the clocks after each move) and
-- their results. Raw seat and invite tokens are never stored: only their
-- SHA-256 in hex.
CREATE TABLE rooms (
    id                 TEXT PRIMARY KEY NOT NULL,
    variant            TEXT NOT NULL,
    start_fen          TEXT,               -- NULL: the variant's start position
    clock_initial_ms   INTEGER,            -- NULL: no time control
    clock_increment_ms INTEGER,
    public             INTEGER NOT NULL,
    invite_hash        TEXT,               -- NULL once spent (or in AI rooms)
    lobby_invite       TEXT,               -- public rooms only: the raw invite the lobby publishes
    state              TEXT NOT NULL,      -- waiting | playing | finished
    winner             TEXT,               -- white | black | NULL (draw or not over)
    reason             TEXT,               -- end reason, NULL while not over
    v                  INTEGER NOT NULL,   -- number of the room's last event
    offers             TEXT NOT NULL DEFAULT '',
    rematch_id         TEXT,
    created_at         INTEGER NOT NULL,   -- Unix ms
    updated_at         INTEGER NOT NULL
) STRICT;

CREATE INDEX rooms_by_state ON rooms (state);

CREATE TABLE seats (
    room_id    TEXT NOT NULL REFERENCES rooms (id),
    color      TEXT NOT NULL,              -- white | black
    token_hash TEXT,                       -- NULL: free, or an AI seat
    ai_level   INTEGER,                    -- 1..8 for an AI seat
    PRIMARY KEY (room_id, color)
) STRICT, WITHOUT ROWID;

CREATE TABLE moves (
    room_id   TEXT NOT NULL REFERENCES rooms (id),
    ply       INTEGER NOT NULL,            -- 0 for the first move
    uci       TEXT NOT NULL,
    white_ms  INTEGER,                     -- clocks after the move (NULL: no clock)
    black_ms  INTEGER,
    played_at INTEGER NOT NULL,            -- Unix ms
    v         INTEGER NOT NULL,            -- number of the move's event
    PRIMARY KEY (room_id, ply)
) STRICT, WITHOUT ROWID;
