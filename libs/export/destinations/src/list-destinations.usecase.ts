import type { DestinationsDeps } from './destinations.deps';

export function listDestinations(deps: Pick<DestinationsDeps, 'destinations'>, tenantId: string, limit = 100, offset = 0) {
  return deps.destinations.list(tenantId, limit, offset);
}
