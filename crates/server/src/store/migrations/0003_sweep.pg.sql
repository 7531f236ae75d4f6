-- PostgreSQL's text of 0003_sweep.sql: the same column and index (BOOLEAN
-- for SQLite's 0/1 INTEGER).
ALTER TABLE room_leases ADD COLUMN released BOOLEAN NOT NULL DEFAULT FALSE;

CREATE INDEX room_leases_orphans ON room_leases (expires_at) WHERE NOT released;
