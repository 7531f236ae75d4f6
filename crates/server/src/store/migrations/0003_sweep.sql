-- The orphan sweep (docs/scaling.md, "Failover"). A lease a node gave
-- back on purpose (its room retired, or the sweep found nothing to run in
-- it) is `released`; a lease that merely expired was held by a node that
-- died or stalled. The sweep looks only at the latter, through the partial
-- index, so its cost follows the number of orphans, not of every room
-- ever held.
ALTER TABLE room_leases ADD COLUMN released INTEGER NOT NULL DEFAULT 0;  -- 0 | 1

CREATE INDEX room_leases_orphans ON room_leases (expires_at) WHERE released = 0;
