import type { TruncateRequest } from '../http/dev/dev-truncate.routes';

interface RawSql {
  $executeRawUnsafe(query: string): Promise<number>;
}

const TABLES: Record<keyof TruncateRequest, string[]> = {
  runs: ['run_events', 'runs'],
  threads: ['threads'],
  assistants: ['assistant_versions', 'assistants'],
  checkpointer: ['checkpoint_writes', 'checkpoint_blobs', 'checkpoints'],
  store: ['store_vectors', 'store_items'],
};

/**
 * Empties the tables behind each flag (CASCADE: what refers to them goes too, as deleting them would take it),
 * then gives the graphs their system assistants back when assistants went.
 */
export function devTruncate(prisma: RawSql, resyncAssistants: () => Promise<unknown>) {
  return async (what: TruncateRequest): Promise<void> => {
    const tables = (Object.keys(TABLES) as (keyof TruncateRequest)[]).filter((flag) => what[flag]).flatMap((flag) => TABLES[flag]);
    if (tables.length > 0) await prisma.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')} CASCADE`);
    if (what.assistants) await resyncAssistants();
  };
}
