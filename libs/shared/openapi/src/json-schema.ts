import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;

/**
 * zod → JSON Schema 2020-12 (OpenAPI 3.1's dialect) for one place in a document. Recursive schemas come back with
 * `$defs`: those move to `components.schemas` under `prefix`-ed names (a `$defs` ref inside an operation would not
 * resolve), and what zod cannot express (transforms, custom checks) becomes `{}` (any value).
 */
export function toOpenApiSchema(schema: z.ZodType, io: 'input' | 'output', prefix: string, components: Record<string, JsonSchema>): JsonSchema {
  const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  const { $schema: _dialect, $defs, ...root } = converted;
  const defs = ($defs ?? {}) as Record<string, JsonSchema>;
  const rename = (name: string) => `${prefix}_${name}`.replace(/[^A-Za-z0-9._-]/g, '_');
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (!value || typeof value !== 'object') return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) =>
        key === '$ref' && typeof v === 'string' && v.startsWith('#/$defs/')
          ? [key, `#/components/schemas/${rename(v.slice('#/$defs/'.length))}`]
          : // A reference to the root itself (`#`) only occurs with a recursive root: point it at a component too.
            key === '$ref' && v === '#'
            ? [key, `#/components/schemas/${rename('root')}`]
            : [key, rewrite(v)],
      ),
    );
  };
  for (const [name, def] of Object.entries(defs)) components[rename(name)] = rewrite(def) as JsonSchema;
  const result = rewrite(root) as JsonSchema;
  if (JSON.stringify(result).includes(`#/components/schemas/${rename('root')}`)) components[rename('root')] = result;
  return result;
}
