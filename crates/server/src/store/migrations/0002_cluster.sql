-- Several nodes sharing one database (docs/scaling.md). A single SQLite
-- node never reads these tables; they exist so both dialects keep one
-- schema.

-- Who owns a room now. A node takes a room when its lease is absent or
-- expired, bumping `epoch`; every write of the room's actor checks the
-- epoch in the same transaction (fencing), so a node that lost the lease
-- cannot write any more.
CREATE TABLE room_leases (
    room_id    TEXT PRIMARY KEY NOT NULL,
    node       TEXT NOT NULL,
    epoch      INTEGER NOT NULL,           -- bumped by every take-over
    expires_at INTEGER NOT NULL            -- Unix ms, on the database's clock
) STRICT;

CREATE INDEX room_leases_by_node ON room_leases (node);

-- The room-creation token bucket of each client address, shared by the
-- nodes so a burst through several nodes meets one limit.
CREATE TABLE room_rate (
    ip         TEXT PRIMARY KEY NOT NULL,
    tokens     REAL NOT NULL,              -- tokens left at updated_at
    updated_at INTEGER NOT NULL            -- Unix ms, on the database's clock
) STRICT;
