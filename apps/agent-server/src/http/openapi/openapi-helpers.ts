// Small builders that keep the OpenAPI document readable: one line per operation where possible.

export type Schema = Record<string, unknown>;
export type Operation = Record<string, unknown>;

export const ref = (name: string): Schema => ({ $ref: `#/components/schemas/${name}` });
export const arrayOf = (items: Schema): Schema => ({ type: 'array', items });
export const object = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  type: 'object',
  properties,
  ...(required.length ? { required } : {}),
});
export const str = (description?: string): Schema => ({ type: 'string', ...(description ? { description } : {}) });
export const uuid = (description?: string): Schema => ({ type: 'string', format: 'uuid', ...(description ? { description } : {}) });
export const int = (description?: string, extra: Schema = {}): Schema => ({ type: 'integer', ...(description ? { description } : {}), ...extra });
export const bool = (description?: string): Schema => ({ type: 'boolean', ...(description ? { description } : {}) });
export const dict = (description?: string): Schema => ({ type: 'object', additionalProperties: true, ...(description ? { description } : {}) });
export const oneOfEnum = (values: readonly string[], description?: string): Schema => ({
  type: 'string',
  enum: [...values],
  ...(description ? { description } : {}),
});
export const dateTime: Schema = { type: 'string', format: 'date-time' };

const json = (schema: Schema) => ({ 'application/json': { schema } });

export const pathParam = (name: string, description: string, schema: Schema = str()) => ({ name, in: 'path', required: true, description, schema });
export const queryParam = (name: string, description: string, schema: Schema = str()) => ({ name, in: 'query', required: false, description, schema });

const ERRORS = {
  '404': { description: 'Not found', content: json(ref('ErrorResponse')) },
  '422': { description: 'Validation error', content: json(ref('HTTPValidationError')) },
};

export interface OperationSpec {
  summary: string;
  description?: string;
  params?: unknown[];
  body?: Schema;
  /** The 200 response body; omit for 204. */
  response?: Schema;
  status?: number;
  /** A text/event-stream response instead of JSON. */
  stream?: boolean;
  headers?: Record<string, Schema>;
  errors?: Record<string, { description: string }>;
}

/** One operation of a tag: summary, parameters, JSON body, response and the usual errors. */
export function operation(tag: string, operationId: string, spec: OperationSpec): Operation {
  const status = String(spec.status ?? (spec.response || spec.stream ? 200 : 204));
  const content = spec.stream
    ? { 'text/event-stream': { schema: str('Server-sent events: `event: <name>`, `data: <json>`, `id: <n>`') } }
    : spec.response
      ? json(spec.response)
      : undefined;
  const headers = spec.headers && Object.fromEntries(Object.entries(spec.headers).map(([name, schema]) => [name, { schema }]));
  return {
    tags: [tag],
    operationId,
    summary: spec.summary,
    ...(spec.description ? { description: spec.description } : {}),
    ...(spec.params?.length ? { parameters: spec.params } : {}),
    ...(spec.body ? { requestBody: { required: true, content: json(spec.body) } } : {}),
    responses: {
      [status]: { description: spec.stream ? 'Event stream' : 'Success', ...(content ? { content } : {}), ...(headers ? { headers } : {}) },
      ...ERRORS,
      ...spec.errors,
    },
  };
}
