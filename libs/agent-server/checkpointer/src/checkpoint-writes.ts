import {
  compareWritesSortKeys,
  WRITES_IDX_MAP,
  writesSortKey,
  type CheckpointPendingWrite,
  type PendingWrite,
  type SerializerProtocol,
} from '@langchain/langgraph-checkpoint';
import { toBytes } from './checkpoint-serde';

/** A `checkpoint_writes` row without its location columns. */
export interface StoredWrite {
  taskId: string;
  idx: number;
  channel: string;
  type: string;
  value: Uint8Array<ArrayBuffer>;
  taskPath: string;
}

/**
 * Rows for one `putWrites` call. Special channels (errors, interrupts, …) get the fixed negative index of
 * `WRITES_IDX_MAP` so they never collide with a task's regular writes.
 */
export async function dumpWrites(
  serde: SerializerProtocol,
  writes: PendingWrite[],
  taskId: string,
  taskPath: string | undefined,
): Promise<StoredWrite[]> {
  return Promise.all(
    writes.map(async ([channel, value], idx): Promise<StoredWrite> => {
      const [type, bytes] = await serde.dumpsTyped(value);
      return { taskId, idx: WRITES_IDX_MAP[channel] ?? idx, channel, type, value: toBytes(bytes), taskPath: taskPath ?? '' };
    }),
  );
}

/** Stored writes in `writesSortKey` order (task path, task id, idx): the order live execution applies them. */
export function sortWrites<T extends Pick<StoredWrite, 'taskId' | 'idx' | 'taskPath'>>(rows: T[]): T[] {
  return rows
    .map((row) => ({ row, key: writesSortKey(row.taskPath, row.taskId, row.idx) }))
    .sort((a, b) => compareWritesSortKeys(a.key, b.key))
    .map(({ row }) => row);
}

/** Stored writes as the `pendingWrites` of a checkpoint tuple. */
export async function loadWrites(serde: SerializerProtocol, rows: StoredWrite[]): Promise<CheckpointPendingWrite[]> {
  return Promise.all(
    sortWrites(rows).map(async (row): Promise<CheckpointPendingWrite> => [row.taskId, row.channel, await serde.loadsTyped(row.type, row.value)]),
  );
}
