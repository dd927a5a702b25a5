import { systemAssistantId } from '@platform/agent-server-assistants';
import type { AccessFilter } from '@platform/agent-server-auth';
import { isUuid } from '@platform/ids';
import type { Cron, CronFilter, CronQuery } from './cron';
import type { CronsDeps } from './crons.deps';

// A graph id stands for its system assistant, as everywhere an assistant id is accepted.
const byAssistant = <F extends CronFilter>(filter: F): F =>
  filter.assistant_id && !isUuid(filter.assistant_id) ? { ...filter, assistant_id: systemAssistantId(filter.assistant_id) } : filter;

/** `POST /runs/crons/search`: one page of crons with the total that match. */
export async function searchCrons(deps: Pick<CronsDeps, 'crons'>, query: CronQuery, visible?: AccessFilter): Promise<{ crons: Cron[]; total: number }> {
  const resolved = byAssistant(query);
  const [crons, total] = await Promise.all([deps.crons.search(resolved, visible), deps.crons.count(resolved, visible)]);
  return { crons, total };
}

/** `POST /runs/crons/count`. */
export function countCrons(deps: Pick<CronsDeps, 'crons'>, filter: CronFilter, visible?: AccessFilter): Promise<number> {
  return deps.crons.count(byAssistant(filter), visible);
}
