import type { z } from 'zod';
import { cancelManyBodySchema, commandSchema, runCreateSchema } from '@platform/agent-server-run-records';
import { toOpenApiSchema, type JsonSchema } from '@platform/openapi';

// The request bodies of the document, generated from the zod schemas the routes validate them with: what the
// server accepts is what the document says, with no hand-kept copy to drift.
const REQUEST_BODIES: Record<string, z.ZodType> = {
  // One schema validates every run-creating body: `if_not_exists` applies on a thread, `on_completion` without one.
  RunCreateStateful: runCreateSchema,
  RunCreateStateless: runCreateSchema,
  RunCancelRequest: cancelManyBodySchema,
  Command: commandSchema,
};

/** The request-body component schemas, as JSON Schema from their zod schemas (and any definitions they need). */
export function requestSchemas(): Record<string, JsonSchema> {
  const components: Record<string, JsonSchema> = {};
  for (const [name, schema] of Object.entries(REQUEST_BODIES)) components[name] = toOpenApiSchema(schema, 'input', name, components);
  return components;
}
