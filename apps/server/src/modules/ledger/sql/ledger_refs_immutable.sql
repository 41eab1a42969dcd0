-- ledger_refs_immutable: refuses deleting or truncating ledger_entries and ledger_accounts, changing
-- their ids, and changing a posting's entry_id or account_id (BEFORE triggers, migration 0051). This
-- is what keeps the statement-level reference check of ledger_postings (ledger_postings_refs_check)
-- as strong as the foreign keys it replaced: a referenced row, once there, stays. The ledger never
-- deletes (corrections are new entries, ARCHITECTURE §4); before 0051 the foreign keys refused
-- deleting a referenced row, and nothing deleted an unreferenced one.
CREATE OR REPLACE FUNCTION ledger_refs_immutable()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '%: % refused: ledger rows are never deleted and their references never change', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'restrict_violation';
END
$function$
;
