import type { Thread } from '@platform/agent-server-data-access';
import type { ThreadSelectField } from './thread';
import type { ThreadState } from './thread-state';

/** Fields of a state a request may `select`; `values.<key>` picks one key of the values. */
export const THREAD_STATE_FIELDS = ['values', 'next', 'tasks', 'checkpoint', 'metadata', 'created_at', 'parent_checkpoint', 'interrupts'] as const;

export function isThreadStateField(field: string): boolean {
  return (THREAD_STATE_FIELDS as readonly string[]).includes(field) || (field.startsWith('values.') && field.length > 'values.'.length);
}

/** The state with only the selected fields (all of them when `select` is empty). */
export function selectStateFields(state: ThreadState, select: readonly string[] | undefined): Partial<ThreadState> {
  if (!select || select.length === 0) return state;
  const picked: Record<string, unknown> = {};
  const valueKeys: string[] = [];
  for (const field of select) {
    if (field.startsWith('values.')) valueKeys.push(field.slice('values.'.length));
    else if (field in state) picked[field] = state[field as keyof ThreadState];
  }
  if (valueKeys.length > 0 && !('values' in picked)) {
    const values = state.values;
    const source = typeof values === 'object' && values !== null && !Array.isArray(values) ? (values as Record<string, unknown>) : {};
    picked['values'] = Object.fromEntries(valueKeys.filter((key) => Object.hasOwn(source, key)).map((key) => [key, source[key]]));
  }
  return picked as Partial<ThreadState>;
}

/** The thread with only the selected fields (all of them when `select` is empty); `extracted` always stays. */
export function selectThreadFields(thread: Thread, select: readonly ThreadSelectField[] | undefined): Partial<Thread> {
  if (!select || select.length === 0) return thread;
  const picked: Record<string, unknown> = {};
  for (const field of select) if (field in thread) picked[field] = thread[field as keyof Thread];
  if (thread.extracted) picked['extracted'] = thread.extracted;
  return picked as Partial<Thread>;
}
