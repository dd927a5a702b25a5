import type { z } from 'zod';
import { validationErrorFromZod, type RequestPart } from '@platform/errors';

/** Parses one part of a request with a zod schema, or throws the FastAPI-shaped 422. */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, part: RequestPart = 'body'): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationErrorFromZod(result.error, part, value);
  return result.data;
}
