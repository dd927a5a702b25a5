import { toJsonSchema } from '@langchain/core/utils/json_schema';
import { isZodSchemaV3, isZodSchemaV4 } from '@langchain/core/utils/types';
import { getConfigTypeSchema, getInputTypeSchema, getOutputTypeSchema, getUpdateTypeSchema } from '@langchain/langgraph/zod/schema';
import type { GraphSchema, JsonSchema } from './graph-schema';

// The StateGraph internals the runtime schemas come from (a compiled graph keeps its builder).
interface BuilderInternals {
  _schemaRuntimeDefinition?: unknown;
  _inputRuntimeDefinition?: unknown;
  _outputRuntimeDefinition?: unknown;
  _configRuntimeSchema?: unknown;
}

interface StateSchemaLike {
  getJsonSchema(): JsonSchema;
  getInputJsonSchema(): JsonSchema;
}

// Input inheriting the state's schema, made partial (StateGraph's marker).
const PARTIAL_STATE = Symbol.for('langgraph.state.partial');

function isStateSchemaLike(value: unknown): value is StateSchemaLike {
  const candidate = value as Partial<StateSchemaLike> | null;
  return typeof candidate === 'object' && candidate !== null && typeof candidate.getJsonSchema === 'function' && typeof candidate.getInputJsonSchema === 'function';
}

const nothing = (schema: GraphSchema) => Object.values(schema).every((value) => value == null);

function fromStateSchema(builder: BuilderInternals): GraphSchema | undefined {
  const { _schemaRuntimeDefinition: state, _inputRuntimeDefinition: input, _outputRuntimeDefinition: output } = builder;
  if (![state, input, output].some(isStateSchemaLike)) return undefined;
  const schema: GraphSchema = {
    state: isStateSchemaLike(state) ? state.getJsonSchema() : undefined,
    input: isStateSchemaLike(input)
      ? input.getInputJsonSchema()
      : input === PARTIAL_STATE && isStateSchemaLike(state)
        ? state.getInputJsonSchema()
        : undefined,
    output: isStateSchemaLike(output) ? output.getJsonSchema() : undefined,
  };
  return nothing(schema) ? undefined : schema;
}

function fromZodRegistry(graph: unknown): GraphSchema | undefined {
  try {
    const schema: GraphSchema = {
      state: getUpdateTypeSchema(graph) as JsonSchema | undefined,
      input: getInputTypeSchema(graph) as JsonSchema | undefined,
      output: getOutputTypeSchema(graph) as JsonSchema | undefined,
      config: getConfigTypeSchema(graph) as JsonSchema | undefined,
    };
    return nothing(schema) ? undefined : schema;
  } catch {
    return undefined;
  }
}

function fromZod(builder: BuilderInternals): GraphSchema | undefined {
  const convert = (schema: unknown): JsonSchema | undefined => {
    if (!isZodSchemaV4(schema) && !isZodSchemaV3(schema)) return undefined;
    try {
      return toJsonSchema(schema) as JsonSchema;
    } catch {
      return undefined;
    }
  };
  const state = convert(builder._schemaRuntimeDefinition);
  const schema: GraphSchema = {
    state,
    input: convert(builder._inputRuntimeDefinition) ?? (state ? { ...state, required: undefined } : undefined),
    output: convert(builder._outputRuntimeDefinition),
    config: convert(builder._configRuntimeSchema),
  };
  return nothing(schema) ? undefined : schema;
}

/**
 * The schemas a compiled graph declares at run time, tried in the reference server's order: a `StateSchema`,
 * zod schemas through LangGraph's registry (`withLangGraph`, `registry` metadata), then zod schemas converted
 * directly. Undefined when the graph has none (an `Annotation.Root` state): its TypeScript types tell then.
 */
export function runtimeGraphSchema(graph: unknown): GraphSchema | undefined {
  const builder = (graph as { builder?: BuilderInternals } | null)?.builder;
  if (!builder || typeof builder !== 'object') return undefined;
  return fromStateSchema(builder) ?? fromZodRegistry(graph) ?? fromZod(builder);
}
