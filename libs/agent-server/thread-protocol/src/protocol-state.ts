/**
 * State (`values`, `updates`) as the streaming protocol carries it, as LangGraph's API server shapes it: pending
 * interrupts left out, and LangChain messages reduced to the protocol's message fields (type, content, id, name,
 * tool calls, ...) instead of LangChain's full serialisation.
 */
type Json = Record<string, unknown>;

const isRecord = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const MESSAGE_TYPES = new Set(['human', 'user', 'ai', 'assistant', 'system', 'tool', 'function', 'remove']);
const typeOf = (value: unknown) => (value === 'assistant' ? 'ai' : value === 'user' ? 'human' : typeof value === 'string' ? value : undefined);
const isMessage = (value: unknown): value is Json => isRecord(value) && MESSAGE_TYPES.has(typeOf(value['type']) ?? '');

function content(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const blocks = value.map((entry) => (typeof entry === 'string' ? { type: 'text', text: entry } : entry)).filter((entry) => entry != null);
  return blocks.length > 0 ? blocks : value;
}

function toolCalls(raw: unknown): { calls: Json[]; invalid: Json[] } {
  const calls: Json[] = [];
  const invalid: Json[] = [];
  for (const call of Array.isArray(raw) ? raw.filter(isRecord) : []) {
    const fn = isRecord(call['function']) ? call['function'] : undefined;
    const id = typeof call['id'] === 'string' ? call['id'] : undefined;
    const name = typeof call['name'] === 'string' ? call['name'] : typeof fn?.['name'] === 'string' ? fn['name'] : undefined;
    const rawArgs = 'args' in call ? call['args'] : fn?.['arguments'];
    let args: unknown = rawArgs;
    let valid = isRecord(rawArgs);
    if (typeof rawArgs === 'string') {
      try {
        args = rawArgs === '' ? {} : JSON.parse(rawArgs);
        valid = true;
      } catch {
        valid = false;
      }
    }
    if (name === undefined) invalid.push({ ...(id ? { id } : {}), ...(typeof rawArgs === 'string' ? { args: rawArgs } : {}), error: 'Incomplete tool call.', type: 'invalid_tool_call' });
    else if (!valid) invalid.push({ ...(id ? { id } : {}), name, ...(typeof rawArgs === 'string' ? { args: rawArgs } : {}), error: 'Malformed args.', type: 'invalid_tool_call' });
    else calls.push({ ...(id ? { id } : {}), name, args, type: 'tool_call' });
  }
  return { calls, invalid };
}

function message(value: Json): Json {
  const type = typeOf(value['type']) as string;
  const out: Json = { type, content: content('content' in value ? value['content'] : '') };
  if (typeof value['id'] === 'string') out['id'] = value['id'];
  if (typeof value['name'] === 'string') out['name'] = value['name'];
  if (isRecord(value['response_metadata']) && Object.keys(value['response_metadata']).length > 0) out['response_metadata'] = value['response_metadata'];
  if ((type === 'ai' || type === 'human') && typeof value['example'] === 'boolean') out['example'] = value['example'];
  if (type === 'tool') {
    if (typeof value['tool_call_id'] === 'string') out['tool_call_id'] = value['tool_call_id'];
    if (value['status'] === 'success' || value['status'] === 'error') out['status'] = value['status'];
    if ('artifact' in value) out['artifact'] = value['artifact'];
  }
  if (type === 'ai') {
    const kwargs = isRecord(value['additional_kwargs']) ? value['additional_kwargs'] : undefined;
    const raw = Array.isArray(value['tool_calls']) && value['tool_calls'].length > 0 ? value['tool_calls'] : kwargs?.['tool_calls'];
    const { calls, invalid } = toolCalls(raw);
    const stated = Array.isArray(value['invalid_tool_calls']) && value['invalid_tool_calls'].length > 0 ? value['invalid_tool_calls'] : undefined;
    if (calls.length > 0) out['tool_calls'] = calls;
    if (stated) {
      out['invalid_tool_calls'] = stated.filter(isRecord).map((call) => ({
        ...(typeof call['id'] === 'string' ? { id: call['id'] } : {}),
        ...(typeof call['name'] === 'string' ? { name: call['name'] } : {}),
        ...(typeof call['args'] === 'string' ? { args: call['args'] } : {}),
        error: typeof call['error'] === 'string' ? call['error'] : 'Malformed args.',
        type: 'invalid_tool_call',
      }));
    } else if (invalid.length > 0) out['invalid_tool_calls'] = invalid;
  }
  return out;
}

export function protocolState(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (isMessage(item) ? message(item) : protocolState(item)));
  if (!isRecord(value)) return value;
  const out: Json = {};
  for (const [key, entry] of Object.entries(value)) {
    if (key === '__interrupt__') continue;
    out[key] = key === 'messages' && Array.isArray(entry) ? entry.map((item) => (isMessage(item) ? message(item) : item)) : protocolState(entry);
  }
  return out;
}
