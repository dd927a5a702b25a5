import type { z } from 'zod';
import { toOpenApiSchema, type JsonSchema } from './json-schema';
import { openApiPath, type DeclaredRoute } from './route';

export interface DocumentInfo {
  title: string;
  version: string;
  description?: string;
  /** Tag names in display order, with an optional description each. */
  tags?: { name: string; description?: string }[];
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description?: string };
  tags?: { name: string; description?: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
  security: Record<string, string[]>[];
}

// FastAPI's 422 body, as `ValidationError` serializes it (libs/shared/errors).
const VALIDATION_ERROR: JsonSchema = {
  type: 'object',
  properties: {
    detail: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          loc: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'integer' }] } },
          msg: { type: 'string' },
          type: { type: 'string' },
        },
        required: ['loc', 'msg', 'type'],
      },
    },
  },
  required: ['detail'],
};

function operationIdOf(r: DeclaredRoute): string {
  return r.operationId ?? `${r.method}${r.path.replace(/[^A-Za-z0-9]+/g, '_')}`.replace(/_+$/, '');
}

/**
 * Path or query parameters from an object schema: one entry per property, required unless optional (path ones
 * always), with the descriptions given (else the schema's own). For a document assembled by hand too.
 */
export function parametersOf(
  schema: z.ZodType,
  where: 'path' | 'query',
  options: { id?: string; components?: Record<string, JsonSchema>; descriptions?: Record<string, string> } = {},
): Record<string, unknown>[] {
  const components = options.components ?? {};
  const json = toOpenApiSchema(schema, 'input', `${options.id ?? 'param'}_${where}`, components);
  if (!options.components && Object.keys(components).length > 0) throw new Error('Parameters with shared definitions need the document components');
  const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description: own, ...rest } = property;
    const description = options.descriptions?.[name] ?? own;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function requestBodyOf(r: DeclaredRoute, id: string, components: Record<string, JsonSchema>): Record<string, unknown> {
  if (r.body) return { requestBody: { required: true, content: { 'application/json': { schema: toOpenApiSchema(r.body, 'input', `${id}_body`, components) } } } };
  if (!r.readsBody) return {};
  const schema = r.readsBody.schema ? toOpenApiSchema(r.readsBody.schema, 'input', `${id}_body`, components) : {};
  return { requestBody: { required: true, description: r.readsBody.description, content: { [r.readsBody.contentType]: { schema } } } };
}

function operationOf(r: DeclaredRoute, components: Record<string, JsonSchema>): Record<string, unknown> {
  const id = operationIdOf(r);
  const parameters = [
    ...(r.params ? parametersOf(r.params, 'path', { id, components }) : []),
    ...(r.query ? parametersOf(r.query, 'query', { id, components }) : []),
    ...Object.entries(r.headers ?? {}).map(([name, header]) => ({
      name,
      in: 'header',
      required: header.required ?? false,
      description: header.description,
      schema: toOpenApiSchema(header.schema, 'input', `${id}_header_${name}`, components),
    })),
  ];
  const responses: Record<string, unknown> = {};
  for (const [status, spec] of Object.entries(r.responses)) {
    const headers =
      spec.headers &&
      Object.fromEntries(
        Object.entries(spec.headers).map(([name, header]) => [
          name,
          { description: header.description, schema: toOpenApiSchema(header.schema, 'output', `${id}_${status}_${name}`, components) },
        ]),
      );
    responses[status] = {
      description: spec.description,
      ...(headers ? { headers } : {}),
      ...(spec.schema
        ? { content: { [spec.contentType ?? 'application/json']: { schema: toOpenApiSchema(spec.schema, 'output', `${id}_${status}`, components) } } }
        : {}),
    };
  }
  if ((r.params || r.query || r.body || r.readsBody) && !responses['422']) {
    responses['422'] = { description: 'Validation error', content: { 'application/json': { schema: { $ref: '#/components/schemas/HTTPValidationError' } } } };
  }
  return {
    ...(r.tags ? { tags: r.tags } : {}),
    summary: r.summary,
    ...(r.description ? { description: r.description } : {}),
    operationId: id,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...requestBodyOf(r, id, components),
    responses,
    ...(r.public ? { security: [] } : {}),
  };
}

/**
 * The OpenAPI 3.1 document of a service, generated from the same route declarations that validate its requests.
 * Every route asks for an API key (`X-Api-Key`) unless declared public.
 */
export function openApiDocument(info: DocumentInfo, routes: readonly DeclaredRoute[]): OpenApiDocument {
  const components: Record<string, JsonSchema> = { HTTPValidationError: VALIDATION_ERROR };
  const paths: OpenApiDocument['paths'] = {};
  for (const r of routes) {
    const path = openApiPath(r.path);
    const item = (paths[path] ??= {});
    if (item[r.method]) throw new Error(`Route declared twice: ${r.method.toUpperCase()} ${r.path}`);
    item[r.method] = operationOf(r, components);
  }
  return {
    openapi: '3.1.0',
    info: { title: info.title, version: info.version, ...(info.description ? { description: info.description } : {}) },
    ...(info.tags ? { tags: info.tags } : {}),
    paths,
    components: { schemas: components, securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' } } },
    security: [{ apiKey: [] }],
  };
}
