-- Announce every new message on the `notice_messages` channel (apps/server/src/modules/notices):
-- the payload is `<userId>:<messageId>:<category>`. A trigger, not a second statement from the
-- service, so that no insert can forget it and a message costs one round trip. NOTIFY inside a
-- transaction is delivered when (and only if) it commits.
CREATE OR REPLACE FUNCTION notice_messages_announce() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('notice_messages', NEW.user_id::text || ':' || NEW.id::text || ':' || NEW.category);
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER notice_messages_announce AFTER INSERT ON notice_messages
FOR EACH ROW EXECUTE FUNCTION notice_messages_announce();
