/**
 * The Postgres NOTIFY channels replicas of one deployment talk over. Payloads carry ids only; what they point at
 * is read from the database.
 */
export const RUN_CHANNELS = {
  /** `e <run_id> <seq>`: events up to `seq` are committed; `d <run_id>`: the run ended (or was deleted). */
  events: 'agent_run_events',
  /** Pending runs may be claimable now (payload empty). */
  queue: 'agent_run_queue',
  /** `<run_id> <action>`: whoever executes the run stops it. */
  cancel: 'agent_run_cancel',
} as const;

export type RunEventSignal = { kind: 'events'; runId: string; seq: number } | { kind: 'done'; runId: string };

export const eventsPayload = (runId: string, seq: number) => `e ${runId} ${seq}`;
export const donePayload = (runId: string) => `d ${runId}`;

export function parseEventSignal(payload: string): RunEventSignal | undefined {
  const [kind, runId, seq] = payload.split(' ');
  if (!runId) return undefined;
  if (kind === 'd') return { kind: 'done', runId };
  if (kind === 'e' && seq !== undefined && /^\d+$/.test(seq)) return { kind: 'events', runId, seq: Number(seq) };
  return undefined;
}
