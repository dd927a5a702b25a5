import type { Destination } from '@platform/export-data-access';
import { NotFoundError } from '@platform/errors';
import { isUuid } from '@platform/ids';
import type { DestinationsDeps } from './destinations.deps';

export async function getDestination(deps: Pick<DestinationsDeps, 'destinations'>, tenantId: string, id: string): Promise<Destination> {
  const found = isUuid(id) ? await deps.destinations.find(tenantId, id.toLowerCase()) : null;
  if (!found) throw new NotFoundError(`Bulk export destination ${id} not found`);
  return found;
}
