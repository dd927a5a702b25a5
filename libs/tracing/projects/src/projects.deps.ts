import { NotFoundError, ValidationError } from '@platform/errors';
import { isUuid } from '@platform/ids';

/** A project id from a path: 422 naming `path.session_id` when it is not a UUID. */
export function projectIdFromPath(id: string): string {
  if (!isUuid(id)) throw ValidationError.at(['path', 'session_id'], 'Input should be a valid UUID', 'uuid_parsing');
  return id.toLowerCase();
}

export const notFound = (id: string) => new NotFoundError(`Tracing project ${id} not found`);
