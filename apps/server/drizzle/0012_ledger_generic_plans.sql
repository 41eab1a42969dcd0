-- The ledger functions' statements join the parameter arrays (unnest: a handful of accounts or
-- entries) to ledger_accounts / ledger_entries by unique indexes. PL/pgSQL keeps their plans in
-- PostgreSQL's plan cache, whose default mode (plan_cache_mode auto) goes on making a custom plan
-- for every call while custom plans look cheaper than the generic one — and they always do, since
-- a custom plan knows the arrays' sizes. So every posting was planned again: ~0.2 ms per statement
-- on the embedded database, half of a posting's time (bench:ledger, PGlite, 10,000 accounts:
-- 744 → 1,543 transfers/s with generic plans; docs/ledger.md "Benchmark"). The generic plans are
-- held to index probes with the settings ledger_post_batch carries (set here again: they were
-- added to migration 0009 after its first version had been applied to some databases).
ALTER FUNCTION ledger_post(text, text, text, text, bigint, jsonb, text[], text[], text[], text[], numeric[], int[], numeric[], int)
  SET plan_cache_mode = force_generic_plan
  SET enable_seqscan = off
  SET enable_hashjoin = off
  SET enable_mergejoin = off;
--> statement-breakpoint
ALTER FUNCTION ledger_post_batch(text[], text[], text[], text[], jsonb, text[], text[], text[], text[], int[], int[], numeric[], int[], int[], numeric[])
  SET plan_cache_mode = force_generic_plan
  SET enable_seqscan = off
  SET enable_hashjoin = off
  SET enable_mergejoin = off;
