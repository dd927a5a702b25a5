import { serializeJson, type AgentGraph } from '@platform/agent-server-graphs';

/** A thread's latest state as the thread row caches it (JSON text), and what it waits for. */
export interface CachedThreadState {
  values: string;
  /** Pending interrupts by task id. */
  interrupts: string;
  /** Nodes are left to run or interrupts wait: the state a run stopped in. */
  pending: boolean;
  /** Interrupts wait (all a rollback can tell from checkpoints: a cancelled run also leaves nodes to run). */
  waitingForInput: boolean;
}

/** Reads the thread's latest state through its graph, as `GET /threads/{id}/state` shows it. */
export async function readThreadState(graph: AgentGraph, threadId: string): Promise<CachedThreadState> {
  const snapshot = await graph.getState({ configurable: { thread_id: threadId } });
  const interrupts = Object.fromEntries(snapshot.tasks.filter((task) => (task.interrupts ?? []).length > 0).map((task) => [task.id, task.interrupts]));
  const waitingForInput = Object.keys(interrupts).length > 0;
  return {
    values: serializeJson(snapshot.values ?? {}),
    interrupts: serializeJson(interrupts),
    pending: snapshot.next.length > 0 || waitingForInput,
    waitingForInput,
  };
}
