-- PostgreSQL's text of 0001_init.sql: the same tables, columns and keys.
-- Dialect differences: BIGINT for SQLite's 64-bit INTEGER, BOOLEAN for
-- the 0/1 `public` flag, SMALLINT for the AI level; no STRICT or WITHOUT
-- ROWID (PostgreSQL types are always strict, and the primary keys are
-- ordinary unique indexes).
CREATE TABLE rooms (
    id                 TEXT PRIMARY KEY NOT NULL,
    variant            TEXT NOT NULL,
    start_fen          TEXT,               -- NULL: the variant's start position
    clock_initial_ms   BIGINT,             -- NULL: no time control
    clock_increment_ms BIGINT,
    public             BOOLEAN NOT NULL,
    invite_hash        TEXT,               -- NULL once spent (or in AI rooms)
    lobby_invite       TEXT,               -- public rooms only: the raw invite the lobby publishes
    state              TEXT NOT NULL,      -- waiting | playing | finished
    winner             TEXT,               -- white | black | NULL (draw or not over)
    reason             TEXT,               -- end reason, NULL while not over
    v                  BIGINT NOT NULL,    -- number of the room's last event
    offers             TEXT NOT NULL DEFAULT '',
    rematch_id         TEXT,
    created_at         BIGINT NOT NULL,    -- Unix ms
    updated_at         BIGINT NOT NULL
);

CREATE INDEX rooms_by_state ON rooms (state);

CREATE TABLE seats (
    room_id    TEXT NOT NULL REFERENCES rooms (id),
    color      TEXT NOT NULL,              -- white | black
    token_hash TEXT,                       -- NULL: free, or an AI seat
    ai_level   SMALLINT,                   -- 1..8 for an AI seat
    PRIMARY KEY (room_id, color)
);

CREATE TABLE moves (
    room_id   TEXT NOT NULL REFERENCES rooms (id),
    ply       BIGINT NOT NULL,             -- 0 for the first move
    uci       TEXT NOT NULL,
    white_ms  BIGINT,                      -- clocks after the move (NULL: no clock)
    black_ms  BIGINT,
    played_at BIGINT NOT NULL,             -- Unix ms
    v         BIGINT NOT NULL,             -- number of the move's event
    PRIMARY KEY (room_id, ply)
);
