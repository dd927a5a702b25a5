export type JsonSchema = Record<string, unknown>;

/**
 * A graph's JSON Schemas as the reference server keeps them (`state`, `input`, `output`, `config`); a schema
 * that cannot be derived is absent. Subgraph answers carry this shape as it is.
 */
export interface GraphSchema {
  state?: JsonSchema;
  input?: JsonSchema;
  output?: JsonSchema;
  config?: JsonSchema;
}

/** `GET /assistants/{id}/schemas`: from JS a config schema and a context schema are one thing, as in the reference. */
export interface AssistantGraphSchemas {
  graph_id: string;
  input_schema?: JsonSchema;
  output_schema?: JsonSchema;
  state_schema?: JsonSchema;
  config_schema?: JsonSchema;
  context_schema?: JsonSchema;
}

export function toAssistantGraphSchemas(graphId: string, schema: GraphSchema): AssistantGraphSchemas {
  return {
    graph_id: graphId,
    input_schema: schema.input,
    output_schema: schema.output,
    state_schema: schema.state,
    config_schema: schema.config,
    context_schema: schema.config,
  };
}
