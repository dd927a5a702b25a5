import type { SerializerProtocol } from '@langchain/langgraph-checkpoint';
import type { PrismaClient } from './generated/prisma/client';

interface CheckpointRow {
  checkpoint_ns: string;
  checkpoint_id: string;
  type: string;
  checkpoint: Uint8Array;
}

interface BlobKey {
  ns: string;
  channel: string;
  version: string;
}

const blobKey = ({ ns, channel, version }: BlobKey) => JSON.stringify([ns, channel, version]);

async function blobsOf(serde: SerializerProtocol, row: CheckpointRow): Promise<BlobKey[]> {
  const stored = (await serde.loadsTyped(row.type, row.checkpoint)) as { channel_versions?: Record<string, unknown> };
  return Object.entries(stored.channel_versions ?? {}).map(([channel, version]) => ({ ns: row.checkpoint_ns, channel, version: String(version) }));
}

/** A thread's checkpoints beyond what the checkpointer does: its latest root checkpoint's metadata, pruning. */
export class CheckpointsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Merges `metadata` into the metadata of the thread's latest root checkpoint; false when it has none. */
  async patchLatestRootMetadata(threadId: string, metadata: Record<string, unknown>): Promise<boolean> {
    const updated = await this.prisma.$executeRawUnsafe(
      `UPDATE checkpoints SET metadata = metadata || $2::jsonb WHERE thread_id = $1 AND checkpoint_ns = '' AND checkpoint_id = (
         SELECT checkpoint_id FROM checkpoints WHERE thread_id = $1 AND checkpoint_ns = '' ORDER BY checkpoint_id COLLATE "C" DESC LIMIT 1)`,
      threadId,
      JSON.stringify(metadata),
    );
    return updated > 0;
  }

  /**
   * Deletes every checkpoint of a thread but the newest of each namespace, with their pending writes and the channel
   * blobs only they used; the kept checkpoints become roots. Blobs are picked from what the deleted checkpoints
   * reference (not "all but the kept ones"), so blobs a run writes meanwhile for a newer checkpoint stay.
   * Returns the number of checkpoints deleted.
   */
  async keepLatest(threadId: string, serde: SerializerProtocol): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRawUnsafe<CheckpointRow[]>(
        'SELECT checkpoint_ns, checkpoint_id, type, checkpoint FROM checkpoints WHERE thread_id = $1 ORDER BY checkpoint_id COLLATE "C" DESC',
        threadId,
      );
      const newest = new Map<string, CheckpointRow>();
      for (const row of rows) if (!newest.has(row.checkpoint_ns)) newest.set(row.checkpoint_ns, row);
      const removed = rows.filter((row) => newest.get(row.checkpoint_ns) !== row);
      if (removed.length === 0) return 0;

      const kept = new Set((await Promise.all([...newest.values()].map((row) => blobsOf(serde, row)))).flat().map(blobKey));
      const unused = new Map<string, BlobKey>();
      for (const key of (await Promise.all(removed.map((row) => blobsOf(serde, row)))).flat()) {
        if (!kept.has(blobKey(key))) unused.set(blobKey(key), key);
      }
      const removedKeys = JSON.stringify(removed.map((row) => ({ ns: row.checkpoint_ns, id: row.checkpoint_id })));
      const removedSet = `SELECT r.ns, r.id FROM jsonb_to_recordset($2::jsonb) AS r(ns text, id text)`;
      await tx.$executeRawUnsafe(
        `DELETE FROM checkpoint_writes WHERE thread_id = $1 AND (checkpoint_ns, checkpoint_id) IN (${removedSet})`,
        threadId,
        removedKeys,
      );
      await tx.$executeRawUnsafe(`DELETE FROM checkpoints WHERE thread_id = $1 AND (checkpoint_ns, checkpoint_id) IN (${removedSet})`, threadId, removedKeys);
      await tx.$executeRawUnsafe(
        `DELETE FROM checkpoint_blobs WHERE thread_id = $1 AND (checkpoint_ns, channel, version) IN
          (SELECT b.ns, b.channel, b.version FROM jsonb_to_recordset($2::jsonb) AS b(ns text, channel text, version text))`,
        threadId,
        JSON.stringify([...unused.values()]),
      );
      // Their parents are gone: the kept checkpoints are where the history now starts.
      await tx.$executeRawUnsafe(
        `UPDATE checkpoints SET parent_checkpoint_id = NULL WHERE thread_id = $1 AND (checkpoint_ns, checkpoint_id) IN
          (SELECT r.ns, r.id FROM jsonb_to_recordset($2::jsonb) AS r(ns text, id text))`,
        threadId,
        JSON.stringify([...newest.values()].map((row) => ({ ns: row.checkpoint_ns, id: row.checkpoint_id }))),
      );
      return removed.length;
    }, { timeout: 60_000 });
  }
}
