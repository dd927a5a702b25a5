import { convertToProtocolEvent } from '@langchain/langgraph';
import type { RunEnd, StoredEvent } from './run';
import { ProtocolMessages, type MessagesPart } from './protocol-messages';
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

// The modes a run started by `run.start` streams; each becomes the protocol channel of the same name.
const PASSTHROUGH = new Set(['values', 'updates', 'custom', 'tasks', 'checkpoints']);

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const graphNameOf = (segment: string) => segment.split(':')[0];

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** How the run ended, as the root's terminal lifecycle event says it. */
function ending(end: RunEnd | null, interrupted: boolean): { event: string; error?: string } {
  if (!end) return { event: 'failed', error: 'The run was deleted' };
  if (end.status === 'success') return { event: interrupted ? 'interrupted' : 'completed' };
  if (end.status === 'interrupted') return { event: 'failed', error: 'The run was cancelled' };
  const output = end.output ? parse(end.output) : undefined;
  const error = isRecord(output) && isRecord(output['__error__']) ? output['__error__'] : undefined;
  return { event: 'failed', error: typeof error?.['message'] === 'string' ? error['message'] : `The run ended with status ${end.status}` };
}

/**
 * The protocol events of one run, made from its stored events in order (the same on every replica, so `seq` and
 * `event_id` are stable across reconnects): a `lifecycle` event where the run and each subgraph start and where it
 * ends, `input.requested` for each interrupt, `messages` as the message lifecycle, the other modes as they are.
 */
export class RunProtocolEvents {
  private readonly messages = new ProtocolMessages();
  private readonly namespaces = new Set<string>();
  private interrupted = false;

  constructor(
    private readonly ordinal: number,
    private readonly graphName?: string,
  ) {}

  convert(stored: StoredEvent): ProtocolEvent[] {
    const [mode, ...namespace] = stored.event.split('|');
    const drafts: Draft[] = [];
    if (mode === 'metadata') {
      const attempt = isRecord(parse(stored.data)) ? (parse(stored.data) as Record<string, unknown>)['attempt'] : 1;
      drafts.push(this.lifecycle([], { event: typeof attempt === 'number' && attempt > 1 ? 'running' : 'started', ...(this.graphName ? { graph_name: this.graphName } : {}) }));
    } else if (mode === 'messages') {
      drafts.push(...this.started(namespace), ...this.messages.add(namespace, parse(stored.data)).map(messagesDraft));
    } else if (PASSTHROUGH.has(mode)) {
      const payload = parse(stored.data);
      drafts.push(...this.started(namespace), ...this.messages.settle(namespace).map(messagesDraft));
      if (mode === 'values' && isRecord(payload) && Object.keys(payload).length === 1 && Array.isArray(payload['__interrupt__'])) {
        drafts.push(...this.interrupts(namespace, payload['__interrupt__']));
      } else {
        for (const event of convertToProtocolEvent({ namespace, mode: mode as 'values', payload, seq: 0 })) {
          drafts.push({ method: event.method, params: event.params as Draft['params'] });
        }
      }
    }
    return this.number(drafts, (sub) => eventSeq(this.ordinal, stored.seq, sub));
  }

  /** The run's last events: open messages end, then subgraphs, then the run itself. */
  end(end: RunEnd | null): ProtocolEvent[] {
    const { event, error } = ending(end, this.interrupted);
    const children = [...this.namespaces].map((key) => key.split('|')).sort((a, b) => b.length - a.length);
    const drafts: Draft[] = [
      ...this.messages.settleAll().map(messagesDraft),
      ...children.map((namespace) => this.lifecycle(namespace, { event: event === 'interrupted' ? 'interrupted' : event, ...(error ? { error } : {}) })),
      this.lifecycle([], { event, ...(error ? { error } : {}) }),
    ];
    return this.number(drafts, (sub) => endSeq(this.ordinal, sub));
  }

  private interrupts(namespace: string[], raised: unknown[]): Draft[] {
    this.interrupted = true;
    return raised.filter(isRecord).map((interrupt) => ({
      method: 'input.requested',
      params: { namespace, data: { interrupt_id: String(interrupt['id'] ?? ''), payload: interrupt['value'] } },
    }));
  }

  // A subgraph's first event: it started (and so did every namespace above it not seen yet).
  private started(namespace: string[]): Draft[] {
    const out: Draft[] = [];
    for (let depth = 1; depth <= namespace.length; depth++) {
      const key = namespace.slice(0, depth).join('|');
      if (this.namespaces.has(key)) continue;
      this.namespaces.add(key);
      out.push(this.lifecycle(namespace.slice(0, depth), { event: 'started', graph_name: graphNameOf(namespace[depth - 1]) }));
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

const messagesDraft = (part: MessagesPart): Draft => ({ method: 'messages', params: { namespace: part.namespace, ...(part.node ? { node: part.node } : {}), data: part.data } });
