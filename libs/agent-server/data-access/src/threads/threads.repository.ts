import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError } from '@platform/errors';
import { storableJson } from '@platform/prisma';
import type { AccessFilter } from '../access-filter';
import type { PrismaClient } from '../generated/prisma/client';
import type { NewThread, Thread, ThreadFilter, ThreadInterrupt, ThreadQuery, ThreadStatus } from './thread';
import { copyThreadRows, deleteThreadRows, type Sql } from './thread-rows.sql';
import { THREAD_COLUMNS, toThread, type ThreadRow } from './thread-row';
import { countThreadsSql, searchThreadsSql, visibleThreadSql } from './thread-search.query';

/**
 * Threads in the agent-server database. Thread ids are UUIDs; any spelling of one finds the thread. `visible` is the
 * caller's filter from the deployment's auth (on the thread's metadata): a thread it hides is not there.
 */
export interface ThreadRepository {
  /** The thread, or NotFoundError `Thread with ID <id> not found`. */
  get(threadId: string, visible?: AccessFilter): Promise<Thread>;
  find(threadId: string, visible?: AccessFilter): Promise<Thread | null>;
  /**
   * Creates a thread (a new id when none is given); with `if_exists: raise` (default) a taken id is a ConflictError,
   * as is an id taken by a thread `visible` hides.
   */
  create(input: NewThread, visible?: AccessFilter): Promise<Thread>;
  /** Like `create`, and says whether the thread was created now (false: it existed and `if_exists` is `do_nothing`). */
  insert(input: NewThread, visible?: AccessFilter): Promise<{ thread: Thread; created: boolean }>;
  /** Merges `metadata` into the thread's (top-level keys replace) and touches `updated_at`. */
  patch(threadId: string, changes: { metadata?: Record<string, unknown> }, visible?: AccessFilter): Promise<Thread>;
  search(query: ThreadQuery, visible?: AccessFilter): Promise<Thread[]>;
  count(filter: ThreadFilter, visible?: AccessFilter): Promise<number>;
  /** Deletes the thread with its runs, run events and checkpoints in one transaction; NotFoundError if missing. */
  delete(threadId: string, visible?: AccessFilter): Promise<void>;
  /** Deletes those of the threads that exist, like `delete`; returns how many there were. */
  deleteMany(threadIds: string[], visible?: AccessFilter): Promise<number>;
  /**
   * A new thread with the same config, cached state and every checkpoint, blob and write, and the source's metadata
   * (or `metadata`, when given: what the deployment's auth made of it). `copyId`: the new thread's id.
   */
  copy(threadId: string, options?: { visible?: AccessFilter; copyId?: string; metadata?: Record<string, unknown> }): Promise<Thread>;
  setStatus(threadId: string, status: ThreadStatus): Promise<void>;
  /**
   * Caches the latest state's values and interrupts on the thread (what reads and `values` searches see). A
   * `status` given is set unless the thread is busy: a run that started meanwhile keeps it.
   */
  saveState(threadId: string, state: { values: unknown; interrupts: Record<string, ThreadInterrupt[]>; status?: ThreadStatus }): Promise<void>;
}

// Worded as LangGraph's API server words them (the SDK shows them as the error's message): reads and deletes name
// the thread, other writes do not.
const notFound = (threadId: string) => new NotFoundError(`Thread with ID ${threadId} not found`);
const writeNotFound = () => new NotFoundError('Thread not found');

const json = (value: unknown) => JSON.stringify(value ?? null);

export function createThreadRepository(prisma: PrismaClient): ThreadRepository {
  const sql: Sql = (text, ...params) => prisma.$executeRawUnsafe(text, ...params);

  const find = async (threadId: string, visible?: AccessFilter): Promise<Thread | null> => {
    const params: unknown[] = [threadId];
    const rows = await prisma.$queryRawUnsafe<ThreadRow[]>(
      `SELECT ${THREAD_COLUMNS} FROM threads t WHERE t.thread_id = $1::uuid${visibleThreadSql(visible, params)}`,
      ...params,
    );
    return rows[0] ? toThread(rows[0]) : null;
  };

  const get = async (threadId: string, visible?: AccessFilter): Promise<Thread> => {
    const thread = await find(threadId, visible);
    if (!thread) throw notFound(threadId);
    return thread;
  };

  const insert = async (input: NewThread, visible?: AccessFilter): Promise<{ thread: Thread; created: boolean }> => {
    const threadId = input.thread_id ?? randomUUID();
    const inserted = await sql(
      'INSERT INTO threads (thread_id, metadata) VALUES ($1::uuid, $2::jsonb) ON CONFLICT (thread_id) DO NOTHING',
      threadId,
      json(input.metadata ?? {}),
    );
    const taken = () => new ConflictError('Thread already exists');
    if (inserted === 0 && (input.if_exists ?? 'raise') === 'raise') throw taken();
    // Someone else's thread under that id is not theirs to see, not even with `do_nothing`.
    const thread = inserted === 0 ? await find(threadId, visible) : await get(threadId);
    if (!thread) throw taken();
    return { thread, created: inserted > 0 };
  };

  const deleteMany = (threadIds: string[], visible?: AccessFilter): Promise<number> =>
    prisma.$transaction(async (tx) => {
      // Locking the rows first serialises with a run changing the thread's status meanwhile.
      const params: unknown[] = [json(threadIds)];
      const locked = await tx.$queryRawUnsafe<{ thread_id: string }[]>(
        `SELECT thread_id::text AS thread_id FROM threads t WHERE thread_id IN (SELECT jsonb_array_elements_text($1::jsonb)::uuid)${visibleThreadSql(visible, params)} FOR UPDATE`,
        ...params,
      );
      if (locked.length > 0) await deleteThreadRows((text, ...params) => tx.$executeRawUnsafe(text, ...params), locked.map((row) => row.thread_id));
      return locked.length;
    });

  return {
    get,
    find,
    insert,
    create: async (input, visible) => (await insert(input, visible)).thread,

    async patch(threadId, changes, visible) {
      const params: unknown[] = [threadId, json(changes.metadata ?? {})];
      const updated = await sql(
        `UPDATE threads t SET metadata = metadata || $2::jsonb, updated_at = now() WHERE thread_id = $1::uuid${visibleThreadSql(visible, params)}`,
        ...params,
      );
      if (updated === 0) throw writeNotFound();
      return get(threadId);
    },

    async search(query, visible) {
      const { sql: text, params } = searchThreadsSql(query, visible);
      return (await prisma.$queryRawUnsafe<ThreadRow[]>(text, ...params)).map(toThread);
    },

    async count(filter, visible) {
      const { sql: text, params } = countThreadsSql(filter, visible);
      const [row] = await prisma.$queryRawUnsafe<{ count: number }[]>(text, ...params);
      return Number(row?.count ?? 0);
    },

    async delete(threadId, visible) {
      if ((await deleteMany([threadId], visible)) === 0) throw notFound(threadId);
    },
    deleteMany,

    async copy(threadId, options = {}) {
      const copyId = options.copyId ?? randomUUID();
      const copied = await prisma.$transaction(async (tx) => {
        const params: unknown[] = [threadId];
        const [source] = await tx.$queryRawUnsafe<{ thread_id: string }[]>(
          `SELECT thread_id::text AS thread_id FROM threads t WHERE thread_id = $1::uuid${visibleThreadSql(options.visible, params)} FOR SHARE`,
          ...params,
        );
        if (!source) return false;
        const run = (text: string, ...values: unknown[]) => tx.$executeRawUnsafe(text, ...values);
        await copyThreadRows(run, source.thread_id, copyId);
        if (options.metadata) await run('UPDATE threads SET metadata = $2::jsonb WHERE thread_id = $1::uuid', copyId, json(options.metadata));
        return true;
      });
      if (!copied) throw writeNotFound();
      return get(copyId);
    },

    async setStatus(threadId, status) {
      if ((await sql('UPDATE threads SET status = $2, updated_at = now() WHERE thread_id = $1::uuid', threadId, status)) === 0) {
        throw writeNotFound();
      }
    },

    async saveState(threadId, state) {
      const updated = await sql(
        `UPDATE threads SET "values" = $2::jsonb, interrupts = $3::jsonb, updated_at = now(),
           status = CASE WHEN status = 'busy' THEN status ELSE COALESCE($4, status) END
         WHERE thread_id = $1::uuid`,
        threadId,
        storableJson(state.values ?? null),
        storableJson(state.interrupts ?? null),
        state.status ?? null,
      );
      if (updated === 0) throw writeNotFound();
    },
  };
}
