/**
 * State values, stream chunks and interrupts hold LangChain objects (messages above all). On the wire the
 * Agent Server API shows a message as its fields plus `type` (`{"type": "ai", "content": ..., "tool_calls": ...}`),
 * which is what `toDict()` yields: `{type, data}` flattened. Everything else goes through JSON as usual.
 */
interface DictSerializable {
  toDict(): { type: string; data: Record<string, unknown> };
}

function isDictSerializable(value: unknown): value is DictSerializable {
  return typeof value === 'object' && value !== null && typeof (value as DictSerializable).toDict === 'function';
}

function replacer(this: Record<string, unknown>, key: string, value: unknown): unknown {
  // `value` has already been through toJSON; the holder still has the original object.
  const raw = this[key];
  if (isDictSerializable(raw)) {
    const { type, data } = raw.toDict();
    return { ...data, type };
  }
  if (typeof raw === 'bigint') return raw.toString();
  if (raw instanceof Error) return { error: raw.name, message: raw.message };
  return value;
}

/** JSON text of a value as the Agent Server API shows it. */
export function serializeJson(value: unknown): string {
  return JSON.stringify(value ?? null, replacer) ?? 'null';
}

/** Plain JSON value (objects, arrays, primitives) of a value as the Agent Server API shows it. */
export function toJsonValue(value: unknown): unknown {
  return JSON.parse(serializeJson(value));
}
