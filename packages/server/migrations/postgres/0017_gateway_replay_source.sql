-- Each replay entry names the bus dispatch it came from (its envelope id, null for what no
-- dispatch brought: GUILD_CREATE of a join, RESUMED) and when that dispatch was published (epoch
-- ms, by the publisher's clock). A gateway node taking over the sessions of a node that died
-- reads the bus history from the newest of them, and skips the dispatches they already hold
-- (docs/gateway.md, Where sessions live).
ALTER TABLE gateway_replay ADD COLUMN source TEXT;
ALTER TABLE gateway_replay ADD COLUMN published_at BIGINT;
