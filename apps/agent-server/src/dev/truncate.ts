import type { DevTablesRepository, TableGroup } from '@platform/agent-server-data-access';
import type { TruncateRequest } from '../http/dev/dev-truncate.routes';

/** Empties the tables behind each flag, then gives the graphs their system assistants back when assistants went. */
export function devTruncate(tables: DevTablesRepository, resyncAssistants: () => Promise<unknown>) {
  return async (what: TruncateRequest): Promise<void> => {
    const flags: Record<keyof TruncateRequest, TableGroup> = { runs: 'runs', threads: 'threads', assistants: 'assistants', checkpointer: 'checkpointer', store: 'store' };
    await tables.truncate((Object.keys(flags) as (keyof TruncateRequest)[]).filter((flag) => what[flag]).map((flag) => flags[flag]));
    if (what.assistants) await resyncAssistants();
  };
}
