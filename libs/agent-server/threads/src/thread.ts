import type { Thread } from '@platform/agent-server-data-access';

/** Fields a search may `select`. `context` is accepted for the SDK's sake; threads have none. */
export const THREAD_SELECT_FIELDS = [
  'thread_id',
  'created_at',
  'updated_at',
  'state_updated_at',
  'metadata',
  'config',
  'context',
  'status',
  'values',
  'interrupts',
] as const;
export type ThreadSelectField = (typeof THREAD_SELECT_FIELDS)[number];

/** The graph a thread runs, recorded in its metadata when a run is created (or by `threads.create({graphId})`). */
export function graphIdOf(thread: Pick<Thread, 'metadata'>): string | undefined {
  const graphId = thread.metadata['graph_id'];
  return typeof graphId === 'string' && graphId !== '' ? graphId : undefined;
}
