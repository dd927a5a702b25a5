import * as checkpointLib from '@langchain/langgraph-checkpoint';
import { WRITES_IDX_MAP, type CheckpointPendingWrite, type PendingWrite, type SerializerProtocol } from '@langchain/langgraph-checkpoint';
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

export type WritesSortKey = [taskPath: string, taskId: string, idx: number];

// Strings by code point (Python's str order), as the library's comparator.
function compareByCodePoint(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i++) {
    const diff = (left[i].codePointAt(0) as number) - (right[i].codePointAt(0) as number);
    if (diff) return diff < 0 ? -1 : 1;
  }
  return Math.sign(left.length - right.length);
}

/** The order of `compareWritesSortKeys`, written out for deployments on @langchain/langgraph-checkpoint < 1.2. */
export function compareWritesKeys(a: WritesSortKey, b: WritesSortKey): number {
  return compareByCodePoint(a[0], b[0]) || compareByCodePoint(a[1], b[1]) || Math.sign(a[2] - b[2]);
}

// The library's own comparator where the deployment's version has it (live execution and savers share it).
const library = checkpointLib as Partial<Pick<typeof checkpointLib, 'compareWritesSortKeys'>>;
const compareWritesSortKeys = library.compareWritesSortKeys ?? compareWritesKeys;

/** Stored writes in `writesSortKey` order (task path, task id, idx): the order live execution applies them. */
export function sortWrites<T extends Pick<StoredWrite, 'taskId' | 'idx' | 'taskPath'>>(rows: T[]): T[] {
  return rows
    .map((row) => ({ row, key: [row.taskPath, row.taskId, row.idx] as WritesSortKey }))
    .sort((a, b) => compareWritesSortKeys(a.key, b.key))
    .map(({ row }) => row);
}

/** Stored writes as the `pendingWrites` of a checkpoint tuple. */
export async function loadWrites(serde: SerializerProtocol, rows: StoredWrite[]): Promise<CheckpointPendingWrite[]> {
  return Promise.all(
    sortWrites(rows).map(async (row): Promise<CheckpointPendingWrite> => [row.taskId, row.channel, await serde.loadsTyped(row.type, row.value)]),
  );
}
