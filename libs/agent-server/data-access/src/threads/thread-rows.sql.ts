/** Runs one statement with bound parameters; returns the number of rows it touched. */
export type Sql = (text: string, ...params: unknown[]) => Promise<number>;

// A JSON array of canonical (lower-case) thread ids: runs and threads key them as uuid, checkpoints as that text.
const ID_UUIDS = 'SELECT jsonb_array_elements_text($1::jsonb)::uuid';
const ID_TEXTS = 'SELECT jsonb_array_elements_text($1::jsonb)';

/** Deletes everything stored under the threads; the caller runs it inside a transaction. */
export async function deleteThreadRows(sql: Sql, threadIds: string[]): Promise<void> {
  const ids = JSON.stringify(threadIds);
  await sql(`DELETE FROM run_events WHERE run_id IN (SELECT run_id FROM runs WHERE thread_id IN (${ID_UUIDS}))`, ids);
  await sql(`DELETE FROM runs WHERE thread_id IN (${ID_UUIDS})`, ids);
  await sql(`DELETE FROM checkpoint_writes WHERE thread_id IN (${ID_TEXTS})`, ids);
  await sql(`DELETE FROM checkpoint_blobs WHERE thread_id IN (${ID_TEXTS})`, ids);
  await sql(`DELETE FROM checkpoints WHERE thread_id IN (${ID_TEXTS})`, ids);
  await sql(`DELETE FROM threads WHERE thread_id IN (${ID_UUIDS})`, ids);
}

/**
 * Copies a thread row and every checkpoint, blob and pending write under a new id; the caller runs it inside a
 * transaction. A run in flight on the source is not copied, so the copy is never busy. The copy's metadata names it
 * (`thread_id`, as LangGraph's API server adds) and its config starts empty (as there: the next run sets it; the source's
 * config carries its caller's `langgraph_auth_*`), and checkpoint metadata that names the source names the copy instead.
 */
export async function copyThreadRows(sql: Sql, sourceId: string, copyId: string): Promise<void> {
  await sql(
    `INSERT INTO threads (thread_id, metadata, status, config, "values", interrupts)
     SELECT $2::uuid, metadata || jsonb_build_object('thread_id', $2::text), CASE WHEN status = 'busy' THEN 'idle' ELSE status END, '{}'::jsonb, "values", interrupts
     FROM threads WHERE thread_id = $1::uuid`,
    sourceId,
    copyId,
  );
  await sql(
    `INSERT INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata, created_at)
     SELECT $2, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint,
       CASE WHEN metadata->>'thread_id' = $1 THEN jsonb_set(metadata, '{thread_id}', to_jsonb($2::text)) ELSE metadata END,
       created_at
     FROM checkpoints WHERE thread_id = $1`,
    sourceId,
    copyId,
  );
  await sql(
    `INSERT INTO checkpoint_blobs (thread_id, checkpoint_ns, channel, version, type, blob)
     SELECT $2, checkpoint_ns, channel, version, type, blob FROM checkpoint_blobs WHERE thread_id = $1`,
    sourceId,
    copyId,
  );
  await sql(
    `INSERT INTO checkpoint_writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value, task_path)
     SELECT $2, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value, task_path FROM checkpoint_writes WHERE thread_id = $1`,
    sourceId,
    copyId,
  );
}
