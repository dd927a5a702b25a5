-- Replicas cache resolved assistants for run creation; any change to an assistant tells them to drop it.
-- (SQL only: triggers are outside what schema.prisma describes, so this migration was written by hand.)
CREATE FUNCTION "notify_assistant_change"() RETURNS trigger AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    PERFORM pg_notify('agent_assistants', OLD.assistant_id::text);
  ELSE
    PERFORM pg_notify('agent_assistants', NEW.assistant_id::text);
  END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER "assistants_notify_change" AFTER INSERT OR UPDATE OR DELETE ON "assistants"
  FOR EACH ROW EXECUTE FUNCTION "notify_assistant_change"();
