import type { ThreadInterrupt } from '@platform/agent-server-data-access';

/** Where a state lives (`@langchain/langgraph-sdk`'s `Checkpoint`). */
export interface ThreadCheckpoint {
  thread_id: string;
  checkpoint_ns: string;
  checkpoint_id: string | null;
  checkpoint_map: Record<string, unknown> | null;
}

/** A task of a state: the next step's work, or a finished one with its error or interrupts. */
export interface ThreadTask {
  id: string;
  name: string;
  error: string | null;
  interrupts: ThreadInterrupt[];
  path?: unknown[];
  /** Where a subgraph task runs (its config's `configurable`: thread and namespace), read without `subgraphs`. */
  checkpoint: Record<string, unknown> | null;
  /** The subgraph's state, read with `subgraphs=true`. */
  state: ThreadState | null;
  /** What the task wrote, once it ran; null before. */
  result: unknown;
}

/** A thread's state at one checkpoint (`@langchain/langgraph-sdk`'s `ThreadState`). */
export interface ThreadState {
  values: unknown;
  next: string[];
  tasks: ThreadTask[];
  /** Absent before the thread's first checkpoint. */
  metadata?: Record<string, unknown>;
  created_at: string | null;
  checkpoint: ThreadCheckpoint | null;
  parent_checkpoint: ThreadCheckpoint | null;
  /** Every task's interrupts, in task order (a thread's own state only: a subgraph's nested state leaves it out). */
  interrupts?: ThreadInterrupt[];
}

/** What picks a checkpoint in requests: any of its fields (`thread_id` is taken from the path). */
export interface CheckpointSelector {
  checkpoint_id?: string | null;
  checkpoint_ns?: string | null;
  checkpoint_map?: Record<string, unknown> | null;
}
