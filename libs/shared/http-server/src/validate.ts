import type { z } from 'zod';
import { ValidationError, unstorableTextIssues, validationErrorFromZod, type RequestPart } from '@platform/errors';

/**
 * Parses one part of a request with a zod schema, or throws the FastAPI-shaped 422. Strings Postgres cannot store
 * (U+0000, unpaired surrogates) are refused here too, each at its location, rather than failing a statement later.
 */
export function parseRequest<S extends z.ZodType>(schema: S, value: unknown, part: RequestPart = 'body'): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw validationErrorFromZod(result.error, part, value);
  const unstorable = unstorableTextIssues(result.data, part);
  if (unstorable.length > 0) throw new ValidationError(unstorable);
  return result.data;
}
