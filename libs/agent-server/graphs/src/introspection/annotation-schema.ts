import { messagesStateReducer } from '@langchain/langgraph';

export type JsonSchema = Record<string, unknown>;

/** A message as the API shows it: its fields plus `type` (see serialize.ts); input may also use `role`. */
const MESSAGE_SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    type: { type: 'string', description: 'human, ai, tool, system, ...' },
    role: { type: 'string', description: 'user, assistant, ... (input only)' },
    content: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'object' } }] },
    id: { type: 'string' },
    name: { type: 'string' },
    tool_calls: { type: 'array', items: { type: 'object' } },
    tool_call_id: { type: 'string' },
  },
  required: ['content'],
  additionalProperties: true,
};

const MESSAGES_SCHEMA: JsonSchema = { type: 'array', items: MESSAGE_SCHEMA, langgraph_type: 'messages' };

interface ChannelLike {
  lc_graph_name?: string;
  operator?: (...args: unknown[]) => unknown;
  initialValueFactory?: () => unknown;
}

function isMessagesChannel(channel: ChannelLike): boolean {
  // The graph module may hold its own copy of @langchain/langgraph, so the reducer's name counts too.
  return channel.operator === messagesStateReducer || channel.operator?.name === 'messagesStateReducer';
}

function schemaOfValue(value: unknown): JsonSchema {
  if (Array.isArray(value)) return { type: 'array' };
  if (value === null || value === undefined) return {};
  if (typeof value === 'object') return { type: 'object' };
  if (typeof value === 'number') return { type: 'number' };
  if (typeof value === 'string') return { type: 'string' };
  if (typeof value === 'boolean') return { type: 'boolean' };
  return {};
}

function channelSchema(definition: unknown): JsonSchema {
  const channel = (typeof definition === 'function' ? (definition as () => unknown)() : definition) as ChannelLike | undefined;
  if (!channel || typeof channel !== 'object') return {};
  if (isMessagesChannel(channel)) return MESSAGES_SCHEMA;
  try {
    // A reducer channel's default tells its shape (`[]`, `{}`, `0`); a plain value channel says nothing.
    return schemaOfValue(channel.initialValueFactory?.());
  } catch {
    return {};
  }
}

/**
 * JSON Schema of an Annotation-style state definition (`{key: channel}`), as far as the channels tell:
 * messages channels are arrays of messages, reducer channels take their default's type, others are any value.
 */
export function annotationSchema(definition: Record<string, unknown> | undefined, title: string): JsonSchema | null {
  if (!definition || typeof definition !== 'object') return null;
  const keys = Object.keys(definition).filter((key) => !key.startsWith('__'));
  if (keys.length === 0) return null;
  return {
    title,
    type: 'object',
    properties: Object.fromEntries(keys.map((key) => [key, channelSchema(definition[key])])),
  };
}
