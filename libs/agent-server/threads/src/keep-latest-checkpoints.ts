import type { SerializerProtocol } from '@langchain/langgraph-checkpoint';
import type { PrismaClient } from '@platform/agent-server-data-access';

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

/**
 * Deletes every checkpoint of a thread but the newest of each namespace, with their pending writes and the channel
 * blobs only they used; the kept checkpoints become roots. Blobs are picked from what the deleted checkpoints
 * reference (not "all but the kept ones"), so blobs a run writes meanwhile for a newer checkpoint stay.
 * Returns the number of checkpoints deleted.
 */
export async function keepLatestCheckpoints(prisma: PrismaClient, serde: SerializerProtocol, threadId: string): Promise<number> {
  return prisma.$transaction(async (tx) => {
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
