import { NotFoundError, ValidationError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import { runJson, type RunJson } from '../run-json';
import type { RunRow } from '../run-row';

export interface RunReader {
  findRun(tenantId: string, id: string): Promise<RunRow | null>;
}

/** A run id from a path, checked (422 naming `loc`) and lower-cased. */
export function runIdFromPath(id: string, loc: (string | number)[] = ['path', 'run_id']): string {
  if (!isUuid(id)) throw ValidationError.at(loc, 'Input should be a valid UUID', 'uuid_parsing');
  return id.toLowerCase();
}

/** `GET /runs/{id}`: a run of the workspace whose create arrived; 404 otherwise. */
export async function getRun(reader: RunReader, tenantId: string, id: string): Promise<RunJson> {
  const row = await reader.findRun(tenantId, runIdFromPath(id));
  if (!row) throw new NotFoundError(`Run ${id} not found`);
  return runJson(row);
}
