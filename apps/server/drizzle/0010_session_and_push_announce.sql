-- Sessions are cached per process for a few seconds (apps/server/src/modules/identity, docs/identity.md
-- "Session cache"). Every change that ends a session's right to act — revoked, deleted, the
-- account's status or KYC level changed — is announced on `identity_sessions` with the user id, in
-- the same transaction, so every process drops that user's cached sessions when it commits. A
-- trigger, so that no code path can forget it.
CREATE OR REPLACE FUNCTION identity_sessions_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('identity_sessions', OLD.user_id::text);
  ELSIF TG_TABLE_NAME = 'users' THEN
    PERFORM pg_notify('identity_sessions', NEW.id::text);
  ELSE
    PERFORM pg_notify('identity_sessions', NEW.user_id::text);
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER sessions_revoked_announce AFTER UPDATE OF revoked_at ON sessions
FOR EACH ROW WHEN (NEW.revoked_at IS DISTINCT FROM OLD.revoked_at) EXECUTE FUNCTION identity_sessions_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_deleted_announce AFTER DELETE ON sessions
FOR EACH ROW EXECUTE FUNCTION identity_sessions_changed();
--> statement-breakpoint
CREATE TRIGGER users_access_changed_announce AFTER UPDATE OF status, kyc_level ON users
FOR EACH ROW WHEN (NEW.status IS DISTINCT FROM OLD.status OR NEW.kyc_level IS DISTINCT FROM OLD.kyc_level) EXECUTE FUNCTION identity_sessions_changed();
--> statement-breakpoint
-- A new message's announcement also says whether its user has any Web Push subscription
-- (`<userId>:<messageId>:<category>:<0|1>`), so the delivering process skips the subscription
-- look-up for the many users who have none (push_subscriptions_user_idx answers the EXISTS).
CREATE OR REPLACE FUNCTION notice_messages_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('notice_messages', NEW.user_id::text || ':' || NEW.id::text || ':' || NEW.category || ':'
    || CASE WHEN EXISTS (SELECT 1 FROM push_subscriptions s WHERE s.user_id = NEW.user_id) THEN '1' ELSE '0' END);
  RETURN NULL;
END;
$$;
