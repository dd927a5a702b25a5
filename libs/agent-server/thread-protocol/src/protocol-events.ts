import { convertToProtocolEvent } from '@langchain/langgraph';
import type { RunEnd, StoredEvent } from '@platform/agent-server-run-records';
import { ProtocolMessages, type MessagesPart } from './protocol-messages';
import { protocolState } from './protocol-state';
import { endSeq, eventSeq, MAX_SUB } from './protocol-seq';

/** An event of the streaming protocol (`@langchain/protocol` `Event`), as the SSE stream sends it. */
export interface ProtocolEvent {
  type: 'event';
  event_id: string;
  seq: number;
  method: string;
  params: { namespace: string[]; timestamp: number; node?: string; data: unknown };
}

type Draft = Pick<ProtocolEvent, 'method'> & { params: Omit<ProtocolEvent['params'], 'timestamp'> };

// Modes `@langchain/langgraph`'s own converter turns into protocol events as they are.
const PASSTHROUGH = new Set(['custom', 'tasks', 'checkpoints']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const graphNameOf = (segment: string) => segment.split(':')[0];

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The root's terminal status: a run that stopped on interrupts is `interrupted`, a cancelled one too (as LangGraph's API server says). */
function ending(end: RunEnd | null, interrupted: boolean): { event: string; error?: string } {
  if (!end) return { event: 'failed', error: 'The run was deleted' };
  if (end.status === 'success') return { event: interrupted ? 'interrupted' : 'completed' };
  if (end.status === 'interrupted') return { event: 'interrupted' };
  const output = end.output ? parse(end.output) : undefined;
  const error = isRecord(output) && isRecord(output['__error__']) ? output['__error__'] : undefined;
  return { event: 'failed', error: typeof error?.['message'] === 'string' ? error['message'] : `The run ended with status ${end.status}` };
}

/** Interrupts as `input.requested` data: `{interrupt_id, payload}` for each one with an id. */
function inputRequests(raised: unknown): { interrupt_id: string; payload: unknown }[] {
  const list = Array.isArray(raised) ? raised : raised === undefined ? [] : [raised];
  return list.filter((entry): entry is Record<string, unknown> => isRecord(entry) && typeof entry['id'] === 'string').map((entry) => ({ interrupt_id: entry['id'] as string, payload: entry['value'] }));
}

/**
 * The protocol events of one run, made from its stored events in order (the same on every replica, so `seq` and
 * `event_id` are stable across reconnects), shaped as LangGraph's API server shapes them: the root's `lifecycle`
 * (running, then how it ended) and each subgraph's (started, completed when its parent node's update arrives),
 * `input.requested` once per interrupt, `messages` as the message lifecycle, `values` and `updates` with protocol
 * messages and without interrupts, the other modes as `@langchain/langgraph` converts them.
 */
export class RunProtocolEvents {
  private readonly messages = new ProtocolMessages();
  /** Subgraph namespaces seen, and whether each is still running. */
  private readonly namespaces = new Map<string, { namespace: string[]; running: boolean }>();
  private readonly interrupts = new Set<string>();
  /** Subgraphs whose parent reported them done: they end before the next event (LangGraph waits for the task's result). */
  private readonly finishing = new Set<string>();
  private failed = false;

  constructor(
    private readonly ordinal: number,
    private readonly graphName?: string,
  ) {}

  convert(stored: StoredEvent): ProtocolEvent[] {
    const [mode, ...namespace] = stored.event.split('|');
    const payload = parse(stored.data);
    const drafts: Draft[] = mode === 'tasks' ? [] : this.finished();
    if (mode === 'metadata') {
      drafts.push(this.root({ event: 'running' }));
    } else if (mode === 'error') {
      const message = isRecord(payload) && typeof payload['message'] === 'string' ? payload['message'] : String(stored.data);
      drafts.push(...this.messages.settleAll().map(messagesDraft), ...this.children('failed'), this.root({ event: 'failed', error: message }));
      this.failed = true;
    } else if (mode === 'messages') {
      // A chat model's messages belong to the task that called it (`<node>:<task id>`), as LangGraph's own protocol has them.
      const at = taskNamespace(payload) ?? namespace;
      drafts.push(...this.started(at), ...this.messages.add(at, payload).map(messagesDraft));
    } else if (mode === 'values') {
      drafts.push(...this.started(namespace), ...this.messages.settleWithin(namespace).map(messagesDraft));
      drafts.push(...this.requested(namespace, isRecord(payload) ? payload['__interrupt__'] : undefined));
      const values = protocolState(payload);
      if (!isRecord(values) || Object.keys(values).length > 0) drafts.push({ method: 'values', params: { namespace, data: values } });
    } else if (mode === 'updates') {
      drafts.push(...this.started(namespace), ...this.messages.settleWithin(namespace).map(messagesDraft));
      const [node, values] = isRecord(payload) ? (Object.entries(payload)[0] ?? []) : [];
      if (node === '__interrupt__') drafts.push(...this.requested(namespace, values));
      else if (node !== undefined) {
        drafts.push({ method: 'updates', params: { namespace, node, data: protocolState(isRecord(values) ? values : { value: values }) } });
        if (!node.startsWith('__')) this.finishChild(namespace, node);
      }
    } else if (mode === 'tasks') {
      // A task's result: the subgraph it ran is done (after this event); any other task event first ends those due.
      if (isRecord(payload) && 'result' in payload && typeof payload['name'] === 'string') this.finishChild(namespace, payload['name']);
      else drafts.push(...this.finished());
      drafts.push(...this.started(namespace), ...this.messages.settleWithin(namespace).map(messagesDraft), ...this.passthrough(namespace, mode, payload));
    } else if (PASSTHROUGH.has(mode)) {
      drafts.push(...this.started(namespace), ...this.messages.settleWithin(namespace).map(messagesDraft), ...this.passthrough(namespace, mode, payload));
    }
    return this.number(drafts, (sub) => eventSeq(this.ordinal, stored.seq, sub));
  }

  /** The run's last events: open messages end, then running subgraphs, then the run itself (unless it failed already). */
  end(end: RunEnd | null): ProtocolEvent[] {
    const drafts: Draft[] = [...this.finished(), ...this.messages.settleAll().map(messagesDraft)];
    if (!this.failed) {
      const { event, error } = ending(end, this.interrupts.size > 0);
      // Subgraphs end `completed` unless the run failed (an interrupted run's subgraphs too), as LangGraph has it.
      drafts.push(...this.children(event === 'failed' ? 'failed' : 'completed'), this.root({ event, ...(error ? { error } : {}) }));
    }
    return this.number(drafts, (sub) => endSeq(this.ordinal, sub));
  }

  private root(data: Record<string, unknown>): Draft {
    return this.lifecycle([], { ...data, ...(this.graphName ? { graph_name: this.graphName } : {}) });
  }

  // Subgraphs still running end, the deepest first.
  private children(event: string): Draft[] {
    const running = [...this.namespaces.values()].filter((entry) => entry.running).sort((a, b) => b.namespace.length - a.namespace.length);
    for (const entry of running) entry.running = false;
    return running.map((entry) => this.lifecycle(entry.namespace, { event, graph_name: graphNameOf(entry.namespace.at(-1) as string) }));
  }

  private passthrough(namespace: string[], mode: string, payload: unknown): Draft[] {
    return convertToProtocolEvent({ namespace, mode: mode as 'custom', payload, seq: 0 }).map((event) => ({ method: event.method, params: event.params as Draft['params'] }));
  }

  // The parent's update for a node (or the node task's result): the subgraph that node ran is done.
  private finishChild(parent: string[], node: string): void {
    const child = [...this.namespaces.entries()].find(
      ([, entry]) => entry.running && entry.namespace.length === parent.length + 1 && parent.every((segment, i) => entry.namespace[i] === segment) && graphNameOf(entry.namespace.at(-1) as string) === node,
    );
    if (child) this.finishing.add(child[0]);
  }

  private finished(): Draft[] {
    const out: Draft[] = [];
    for (const key of this.finishing) {
      const entry = this.namespaces.get(key);
      if (!entry?.running) continue;
      entry.running = false;
      out.push(...this.messages.settleWithin(entry.namespace).map(messagesDraft), this.lifecycle(entry.namespace, { event: 'completed', graph_name: graphNameOf(entry.namespace.at(-1) as string) }));
    }
    this.finishing.clear();
    return out;
  }

  private requested(namespace: string[], raised: unknown): Draft[] {
    const fresh = inputRequests(raised).filter((request) => !this.interrupts.has(request.interrupt_id));
    for (const request of fresh) this.interrupts.add(request.interrupt_id);
    return fresh.map((data) => ({ method: 'input.requested', params: { namespace, data } }));
  }

  // A subgraph's first event: it started (and so did every namespace above it not seen yet).
  private started(namespace: string[]): Draft[] {
    const out: Draft[] = [];
    for (let depth = 1; depth <= namespace.length; depth++) {
      const prefix = namespace.slice(0, depth);
      const key = prefix.join('|');
      if (this.namespaces.has(key)) continue;
      this.namespaces.set(key, { namespace: prefix, running: true });
      out.push(this.lifecycle(prefix, { event: 'started', graph_name: graphNameOf(namespace[depth - 1]) }));
    }
    return out;
  }

  private lifecycle(namespace: string[], data: Record<string, unknown>): Draft {
    return { method: 'lifecycle', params: { namespace, data } };
  }

  private number(drafts: Draft[], seqOf: (sub: number) => number): ProtocolEvent[] {
    const timestamp = Date.now();
    // More protocol events than sub slots share the last one (and its id): a limit no graph stream comes near.
    return drafts.map((draft, index) => {
      const seq = seqOf(Math.min(index, MAX_SUB));
      return { type: 'event', event_id: String(seq), seq, method: draft.method, params: { ...draft.params, timestamp } };
    });
  }
}

const messagesDraft = (part: MessagesPart): Draft => ({ method: 'messages', params: { namespace: part.namespace, data: part.data } });

function taskNamespace(payload: unknown): string[] | undefined {
  const metadata = Array.isArray(payload) ? payload[1] : undefined;
  const ns = isRecord(metadata) ? metadata['langgraph_checkpoint_ns'] : undefined;
  return typeof ns === 'string' && ns !== '' ? ns.split('|') : undefined;
}
