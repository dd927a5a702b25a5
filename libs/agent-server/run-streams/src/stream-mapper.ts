import { isCheckpointEnvelope, type StreamMode as GraphStreamMode } from '@langchain/langgraph';
import type { StreamMode } from '@platform/agent-server-run-records';
import { checkpointPayload, debugPayload, taskPayload } from './checkpoint-payload';

/** One SSE event before serialisation. */
export interface MappedEvent {
  event: string;
  data: unknown;
}

interface MessageLike {
  id?: string;
  _getType(): string;
}

interface ChunkLike extends MessageLike {
  concat(other: ChunkLike): ChunkLike;
}

const isMessage = (value: unknown): value is MessageLike =>
  typeof value === 'object' && value !== null && typeof (value as MessageLike)._getType === 'function';
// Duck-typed: a graph module may carry its own copy of @langchain/core, whose classes instanceof cannot see.
const isChunk = (value: unknown): value is ChunkLike => isMessage(value) && typeof (value as ChunkLike).concat === 'function';

// A chat model's stream metadata as LangGraph's API server sends it (its tags are the event's, not the metadata's).
function withoutTags(metadata: unknown): unknown {
  if (typeof metadata !== 'object' || metadata === null || !('tags' in metadata)) return metadata;
  const { tags: _tags, ...rest } = metadata as Record<string, unknown>;
  return rest;
}

const isInterruptChunk = (payload: unknown) =>
  typeof payload === 'object' && payload !== null && Object.keys(payload).length === 1 && '__interrupt__' in payload;

/**
 * Turns a graph's stream chunks into the Agent Server's SSE events: `<mode>` (or `<mode>|<namespace>` for
 * subgraphs) for the modes the client asked for, `messages-tuple` as `messages`, and the legacy `messages` mode as
 * `messages/metadata`, `messages/partial` and `messages/complete`. It also keeps what the run ends with: the last
 * root `values` and whether the graph stopped on an interrupt.
 */
export class StreamMapper {
  private readonly modes: Set<StreamMode>;
  private readonly partial = new Map<string, ChunkLike>();
  private readonly completed = new Set<string>();
  /** The latest full state of the root graph (undefined until the first `values` chunk). */
  lastValues: unknown = undefined;
  /** The graph stopped on `interrupt()` or `interrupt_before/after`. */
  interrupted = false;
  /** The interrupts it stopped on (none for `interrupt_before/after`). */
  interrupts: unknown[] = [];

  constructor(modes: StreamMode[]) {
    this.modes = new Set(modes);
  }

  /** The modes to ask the graph for: `values` always (join and wait return it), `messages` for either message mode. */
  graphModes(): GraphStreamMode[] {
    const modes = new Set<GraphStreamMode>(['values']);
    for (const mode of this.modes) {
      if (mode === 'messages' || mode === 'messages-tuple') modes.add('messages');
      else if (mode !== 'events') modes.add(mode);
    }
    return [...modes];
  }

  // The API server streams `values` from the graph for either mode, and envelopes come with `values`.
  private wantsEnvelopes(): boolean {
    return !this.modes.has('checkpoints') && (this.modes.has('values') || this.modes.has('messages'));
  }

  map(namespace: string[], mode: string, payload: unknown): MappedEvent[] {
    const root = namespace.length === 0;
    const name = (base: string) => (root ? base : `${base}|${namespace.join('|')}`);
    switch (mode) {
      case 'values': {
        if (root) {
          if (isInterruptChunk(payload)) {
            this.interrupted = true;
            const raised = (payload as { __interrupt__: unknown }).__interrupt__;
            this.interrupts = Array.isArray(raised) ? raised : [];
          } else this.lastValues = payload;
        }
        const out: MappedEvent[] = this.modes.has('values') ? [{ event: name('values'), data: payload }] : [];
        if (this.modes.has('messages')) out.push(...this.completeMessages(payload));
        return out;
      }
      case 'messages': {
        const out: MappedEvent[] = this.modes.has('messages-tuple') ? [{ event: name('messages'), data: payload }] : [];
        if (this.modes.has('messages') && Array.isArray(payload)) out.push(...this.partialMessage(payload[0], payload[1]));
        return out;
      }
      case 'checkpoints':
        // LangGraph puts a lightweight envelope before subgraph `values` under `streamEvents`; LangGraph's API server
        // passes it on as a `checkpoints` event to clients that did not ask for full checkpoints.
        if (isCheckpointEnvelope(payload)) return this.wantsEnvelopes() ? [{ event: name('checkpoints'), data: payload }] : [];
        return this.modes.has('checkpoints') ? [{ event: name('checkpoints'), data: checkpointPayload(payload) }] : [];
      case 'tasks':
        return this.modes.has('tasks') ? [{ event: name('tasks'), data: taskPayload(payload) }] : [];
      case 'debug':
        return this.modes.has('debug') ? [{ event: name('debug'), data: debugPayload(payload) }] : [];
      default:
        return this.modes.has(mode as StreamMode) ? [{ event: name(mode), data: payload }] : [];
    }
  }

  // Tokens of a streaming chat model: metadata once per message, then the message so far after every token.
  private partialMessage(message: unknown, metadata: unknown): MappedEvent[] {
    if (!isChunk(message) || !message.id) return [];
    const soFar = this.partial.get(message.id);
    if (!soFar) {
      this.partial.set(message.id, message);
      return [
        { event: 'messages/metadata', data: { [message.id]: { metadata: withoutTags(metadata) } } },
        { event: 'messages/partial', data: [message] },
      ];
    }
    const merged = soFar.concat(message);
    this.partial.set(message.id, merged);
    return [{ event: 'messages/partial', data: [merged] }];
  }

  // Messages that appear in the state for the first time are complete.
  private completeMessages(values: unknown): MappedEvent[] {
    if (typeof values !== 'object' || values === null || !('messages' in values)) return [];
    const raw = (values as { messages: unknown }).messages;
    const messages = (Array.isArray(raw) ? raw : [raw]).filter(isMessage);
    const fresh = messages.filter((message): message is MessageLike & { id: string } => typeof message.id === 'string' && message.id !== '' && !this.completed.has(message.id));
    for (const message of fresh) this.completed.add(message.id);
    return fresh.length > 0 ? [{ event: 'messages/complete', data: fresh }] : [];
  }
}
