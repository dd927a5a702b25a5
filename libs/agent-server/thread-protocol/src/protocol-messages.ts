/**
 * Turns a run's `messages` (tuple) events into the streaming protocol's message lifecycle: `message-start`,
 * `content-block-start` / `-delta` / `-finish` (blocks never interleave), `message-finish`. Streamed chunks of one
 * message (same id) become deltas; a message that arrives whole is replayed block by block. A message ends when the
 * next one starts in its namespace, when anything else happens there, or when the run ends.
 */
type Json = Record<string, unknown>;

export interface MessagesPart {
  namespace: string[];
  node?: string;
  data: Json;
}

interface OpenBlock {
  key: string;
  index: number;
  kind: 'text' | 'reasoning' | 'tool';
  text: string;
  id?: string | null;
  name?: string | null;
}

interface OpenMessage {
  id: string;
  namespace: string[];
  node?: string;
  nextIndex: number;
  block?: OpenBlock;
  usage?: unknown;
}

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const nsKey = (namespace: string[]) => namespace.join('|');

function roleOf(type: unknown): string {
  if (type === 'human' || type === 'system' || type === 'tool') return type;
  return 'ai';
}

function finishedBlock(block: OpenBlock): Json {
  if (block.kind === 'text') return { type: 'text', text: block.text };
  if (block.kind === 'reasoning') return { type: 'reasoning', reasoning: block.text };
  try {
    const args: unknown = block.text === '' ? {} : JSON.parse(block.text);
    if (isRecord(args)) return { type: 'tool_call', id: block.id ?? null, name: block.name ?? '', args };
  } catch {
    // Not JSON: an invalid tool call, as LangChain names it.
  }
  return { type: 'invalid_tool_call', id: block.id ?? null, name: block.name ?? null, args: block.text, error: 'Tool call arguments are not a JSON object' };
}

/** Streamed pieces of a message chunk: text, reasoning and tool-call argument slices, in order. */
function pieces(message: Json): { key: string; kind: OpenBlock['kind']; text: string; id?: string | null; name?: string | null }[] {
  const out: ReturnType<typeof pieces> = [];
  const content = message['content'];
  if (typeof content === 'string') {
    if (content !== '') out.push({ key: 'text', kind: 'text', text: content });
  } else if (Array.isArray(content)) {
    for (const block of content.filter(isRecord)) {
      const at = String(block['index'] ?? 0);
      if (block['type'] === 'text' && typeof block['text'] === 'string') out.push({ key: `text:${at}`, kind: 'text', text: block['text'] });
      else if ((block['type'] === 'reasoning' || block['type'] === 'thinking') && typeof (block['reasoning'] ?? block['thinking']) === 'string') {
        out.push({ key: `reasoning:${at}`, kind: 'reasoning', text: String(block['reasoning'] ?? block['thinking']) });
      }
    }
  }
  const chunks = message['tool_call_chunks'];
  for (const chunk of Array.isArray(chunks) ? chunks.filter(isRecord) : []) {
    out.push({
      key: `tool:${String(chunk['index'] ?? chunk['id'] ?? 0)}`,
      kind: 'tool',
      text: typeof chunk['args'] === 'string' ? chunk['args'] : '',
      id: typeof chunk['id'] === 'string' ? chunk['id'] : null,
      name: typeof chunk['name'] === 'string' ? chunk['name'] : null,
    });
  }
  return out;
}

/** Whole blocks of a complete message: its content, then its tool calls. */
function wholeBlocks(message: Json): Json[] {
  const content = message['content'];
  const blocks: Json[] = typeof content === 'string' ? (content === '' ? [] : [{ type: 'text', text: content }]) : Array.isArray(content) ? content.filter(isRecord) : [];
  const calls = message['tool_calls'];
  for (const call of Array.isArray(calls) ? calls.filter(isRecord) : []) {
    if (blocks.some((block) => block['type'] === 'tool_call' && block['id'] === call['id'])) continue;
    blocks.push({ type: 'tool_call', id: call['id'] ?? null, name: call['name'] ?? '', args: isRecord(call['args']) ? call['args'] : {} });
  }
  return blocks.map(({ index: _index, ...block }) => block);
}

function startOf(block: Json): Json {
  if (block['type'] === 'text') return { type: 'text', text: '' };
  if (block['type'] === 'reasoning') return { type: 'reasoning', reasoning: '' };
  if (block['type'] === 'tool_call') return { type: 'tool_call_chunk', id: block['id'] ?? null, name: block['name'] ?? null, args: '' };
  return block;
}

export class ProtocolMessages {
  private readonly open = new Map<string, OpenMessage>();

  /** One `messages` event: `[message, metadata]`. */
  add(namespace: string[], payload: unknown): MessagesPart[] {
    if (!Array.isArray(payload) || !isRecord(payload[0])) return [];
    const [message, metadata] = payload as [Json, unknown];
    // As LangGraph's own protocol messages: an AI message's start names no role, others do (a tool's with its call).
    const node = isRecord(metadata) && typeof metadata['langgraph_node'] === 'string' ? metadata['langgraph_node'] : undefined;
    const id = typeof message['id'] === 'string' ? message['id'] : undefined;
    const streamed = 'tool_call_chunks' in message && id !== undefined;
    const current = this.open.get(nsKey(namespace));
    const out: MessagesPart[] = [];
    if (current && current.id !== id) out.push(...this.finish(current));
    if (!streamed) {
      // The complete form of the message just streamed adds nothing; any other message arrives whole.
      if (current?.id === id && current !== undefined) return out.concat(this.finish(current));
      return out.concat(this.whole(namespace, node, message));
    }
    let open = this.open.get(nsKey(namespace));
    if (!open) {
      open = { id: id as string, namespace, node, nextIndex: 0 };
      this.open.set(nsKey(namespace), open);
      out.push(this.part(open, { event: 'message-start', id }));
    }
    for (const piece of pieces(message)) {
      if (open.block?.key !== piece.key) {
        if (open.block) out.push(this.finishBlock(open, open.block));
        const block: OpenBlock = { key: piece.key, kind: piece.kind, index: open.nextIndex++, text: '', id: piece.id, name: piece.name };
        open.block = block;
        const start = piece.kind === 'text' ? { type: 'text', text: '' } : piece.kind === 'reasoning' ? { type: 'reasoning', reasoning: '' } : { type: 'tool_call_chunk', id: piece.id ?? null, name: piece.name ?? null, args: '' };
        out.push(this.part(open, { event: 'content-block-start', index: block.index, content: start }));
      }
      const block = open.block as OpenBlock;
      block.text += piece.text;
      block.id ??= piece.id;
      block.name ??= piece.name;
      if (piece.text === '') continue;
      const delta = piece.kind === 'text' ? { type: 'text-delta', text: piece.text } : piece.kind === 'reasoning' ? { type: 'reasoning-delta', reasoning: piece.text } : { type: 'tool-call-delta', args: piece.text };
      out.push(this.part(open, { event: 'content-block-delta', index: block.index, delta }));
    }
    if (isRecord(message['usage_metadata'])) open.usage = message['usage_metadata'];
    return out;
  }

  /** Ends the messages open in `namespace` and below it (something else happened there). */
  settleWithin(namespace: string[]): MessagesPart[] {
    const inside = [...this.open.values()].filter((open) => namespace.every((segment, i) => open.namespace[i] === segment));
    return inside.flatMap((open) => this.finish(open));
  }

  /** Ends every open message (the run ended). */
  settleAll(): MessagesPart[] {
    return [...this.open.values()].flatMap((open) => this.finish(open));
  }

  private part(open: Pick<OpenMessage, 'namespace' | 'node'>, data: Json): MessagesPart {
    return { namespace: open.namespace, ...(open.node ? { node: open.node } : {}), data };
  }

  private finishBlock(open: OpenMessage, block: OpenBlock): MessagesPart {
    open.block = undefined;
    return this.part(open, { event: 'content-block-finish', index: block.index, content: finishedBlock(block) });
  }

  private finish(open: OpenMessage): MessagesPart[] {
    this.open.delete(nsKey(open.namespace));
    const out = open.block ? [this.finishBlock(open, open.block)] : [];
    out.push(this.part(open, { event: 'message-finish', ...(open.usage ? { usage: open.usage } : {}) }));
    return out;
  }

  private whole(namespace: string[], node: string | undefined, message: Json): MessagesPart[] {
    const at = { namespace, node };
    const role = roleOf(message['type']);
    const out = [
      this.part(at, {
        event: 'message-start',
        ...(typeof message['id'] === 'string' ? { id: message['id'] } : {}),
        ...(role !== 'ai' ? { role } : {}),
        ...(role === 'tool' && typeof message['tool_call_id'] === 'string' ? { tool_call_id: message['tool_call_id'] } : {}),
      }),
    ];
    wholeBlocks(message).forEach((block, index) => {
      out.push(this.part(at, { event: 'content-block-start', index, content: startOf(block) }));
      if (block['type'] === 'text' && typeof block['text'] === 'string' && block['text'] !== '') {
        out.push(this.part(at, { event: 'content-block-delta', index, delta: { type: 'text-delta', text: block['text'] } }));
      }
      out.push(this.part(at, { event: 'content-block-finish', index, content: block }));
    });
    out.push(this.part(at, { event: 'message-finish', ...(isRecord(message['usage_metadata']) ? { usage: message['usage_metadata'] } : {}) }));
    return out;
  }
}
