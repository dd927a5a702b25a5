import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { isInteropZodSchema } from '@langchain/core/utils/types';
import {
  getConfigTypeSchema,
  getInputTypeSchema,
  getOutputTypeSchema,
  getStateTypeSchema,
} from '@langchain/langgraph/zod/schema';
import type { AgentGraph } from '../graph-registry';
import { annotationSchema, type JsonSchema } from './annotation-schema';

/** The JSON Schemas of a graph as `GET /assistants/{id}/schemas` shows them (null where none can be derived). */
export interface GraphSchemas {
  input_schema: JsonSchema | null;
  output_schema: JsonSchema | null;
  state_schema: JsonSchema | null;
  config_schema: JsonSchema | null;
  context_schema: JsonSchema | null;
}

// StateGraph internals the schemas come from (a compiled graph keeps its builder).
interface BuilderInternals {
  _schemaDefinition?: Record<string, unknown>;
  _inputDefinition?: Record<string, unknown>;
  _outputDefinition?: Record<string, unknown>;
  _schemaDefinitions?: Map<unknown, Record<string, unknown>>;
  _schemaRuntimeDefinition?: unknown;
  _inputRuntimeDefinition?: unknown;
  _outputRuntimeDefinition?: unknown;
  _configRuntimeSchema?: unknown;
}

function attempt(derive: () => unknown): JsonSchema | undefined {
  try {
    const schema = derive();
    return schema && typeof schema === 'object' ? (schema as JsonSchema) : undefined;
  } catch {
    // LangGraph's converter refuses some zod types (z.custom for messages): the fallbacks below cover them.
    return undefined;
  }
}

function zodSchema(schema: unknown, partial: boolean): JsonSchema | undefined {
  if (!isInteropZodSchema(schema)) return undefined;
  const converted = attempt(() => toJsonSchema(schema, { unrepresentable: 'any', io: partial ? 'input' : 'output' }));
  if (converted && partial) delete converted.required;
  return converted;
}

function channelsOf(builder: BuilderInternals, definition: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  return definition ? (builder._schemaDefinitions?.get(definition) ?? definition) : undefined;
}

// Wherever a property is a messages channel, say so precisely (zod schemas only know "any" there).
function withMessageChannels(schema: JsonSchema | undefined, channels: Record<string, unknown> | undefined): JsonSchema | undefined {
  const properties = schema?.properties as Record<string, JsonSchema> | undefined;
  const fromChannels = annotationSchema(channels, 'channels')?.properties as Record<string, JsonSchema> | undefined;
  if (!schema || !properties || !fromChannels) return schema;
  for (const [key, channelSchema] of Object.entries(fromChannels)) {
    if (channelSchema.langgraph_type === 'messages' && key in properties) properties[key] = { ...channelSchema };
  }
  return schema;
}

/**
 * Input, output, state and config/context JSON Schemas of a compiled graph, derived at runtime: StateSchema
 * and zod states through LangGraph's own converters (zod directly where those refuse), Annotation states
 * from their channels.
 */
export function graphSchemas(graph: AgentGraph): GraphSchemas {
  const builder = (graph as unknown as { builder?: BuilderInternals }).builder;
  if (!builder) return { input_schema: null, output_schema: null, state_schema: null, config_schema: null, context_schema: null };
  const stateChannels = builder._schemaDefinition;
  const inputChannels = channelsOf(builder, builder._inputDefinition) ?? stateChannels;
  const outputChannels = channelsOf(builder, builder._outputDefinition) ?? stateChannels;
  const inputRuntime = typeof builder._inputRuntimeDefinition === 'symbol' ? builder._schemaRuntimeDefinition : builder._inputRuntimeDefinition;

  const state =
    attempt(() => getStateTypeSchema(graph)) ?? zodSchema(builder._schemaRuntimeDefinition, false) ?? annotationSchema(stateChannels, 'State');
  const input = attempt(() => getInputTypeSchema(graph)) ?? zodSchema(inputRuntime, true) ?? annotationSchema(inputChannels, 'Input');
  const output =
    attempt(() => getOutputTypeSchema(graph)) ??
    zodSchema(builder._outputRuntimeDefinition, false) ??
    annotationSchema(outputChannels, 'Output');
  // From JS a config schema and a context schema are one thing: the graph's `context` zod schema.
  const context = attempt(() => getConfigTypeSchema(graph)) ?? zodSchema(builder._configRuntimeSchema, false) ?? null;

  return {
    input_schema: withMessageChannels(input ?? undefined, inputChannels) ?? null,
    output_schema: withMessageChannels(output ?? undefined, outputChannels) ?? null,
    state_schema: withMessageChannels(state ?? undefined, stateChannels) ?? null,
    config_schema: context,
    context_schema: context ? structuredClone(context) : null,
  };
}
