-- PostgreSQL's text of 0002_cluster.sql: the same tables, columns and keys
-- (BIGINT for SQLite's INTEGER, DOUBLE PRECISION for REAL).
CREATE TABLE room_leases (
    room_id    TEXT PRIMARY KEY NOT NULL,
    node       TEXT NOT NULL,
    epoch      BIGINT NOT NULL,
    expires_at BIGINT NOT NULL
);

CREATE INDEX room_leases_by_node ON room_leases (node);

CREATE TABLE room_rate (
    ip         TEXT PRIMARY KEY NOT NULL,
    tokens     DOUBLE PRECISION NOT NULL,
    updated_at BIGINT NOT NULL
);
