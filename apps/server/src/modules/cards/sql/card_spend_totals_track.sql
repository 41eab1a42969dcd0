-- card_spend_totals_track: the trigger on card_transactions (AFTER INSERT OR UPDATE OR DELETE, for
-- each row) that keeps card_spend_totals (modules/cards/cards.tables.ts) equal to the sum of each
-- card's PURCHASE rows that are AUTHORIZED or CLEARED, per UTC day of their created_at. A row's
-- share is taken off its old day and put on its new one, so every change counts: a hold approved
-- (insert or PENDING_CONFIRMATION → AUTHORIZED), a clearing at another amount, a reversal
-- (AUTHORIZED → REVERSED). Runs in the writer's transaction; the writers of purchases hold the
-- card row's lock, so a card's day row is not contended.
CREATE OR REPLACE FUNCTION card_spend_totals_track()
RETURNS trigger
LANGUAGE plpgsql
AS $$
DECLARE
  v_old numeric := 0;
  v_new numeric := 0;
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.kind = 'PURCHASE' AND OLD.status IN ('AUTHORIZED', 'CLEARED') THEN
    v_old := OLD.amount_minor;
  END IF;
  IF TG_OP <> 'DELETE' AND NEW.kind = 'PURCHASE' AND NEW.status IN ('AUTHORIZED', 'CLEARED') THEN
    v_new := NEW.amount_minor;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.card_id = NEW.card_id AND OLD.created_at = NEW.created_at THEN
    v_new := v_new - v_old;
    v_old := 0;
  END IF;
  IF v_old <> 0 THEN
    UPDATE card_spend_totals s SET amount_minor = s.amount_minor - v_old
    WHERE s.card_id = OLD.card_id AND s.day = (OLD.created_at AT TIME ZONE 'UTC')::date;
  END IF;
  IF v_new <> 0 THEN
    INSERT INTO card_spend_totals AS s (card_id, day, amount_minor)
    VALUES (NEW.card_id, (NEW.created_at AT TIME ZONE 'UTC')::date, v_new)
    ON CONFLICT (card_id, day) DO UPDATE SET amount_minor = s.amount_minor + EXCLUDED.amount_minor;
  END IF;
  RETURN NULL;
END;
$$;
