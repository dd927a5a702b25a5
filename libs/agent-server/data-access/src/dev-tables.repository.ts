import type { PrismaClient } from './generated/prisma/client';

/** The tables behind each group a dev-mode truncate names (`POST /internal/truncate`). */
const TABLE_GROUPS = {
  runs: ['run_events', 'runs'],
  threads: ['threads'],
  assistants: ['assistant_versions', 'assistants'],
  checkpointer: ['checkpoint_writes', 'checkpoint_blobs', 'checkpoints'],
  store: ['store_vectors', 'store_items'],
} as const;

export type TableGroup = keyof typeof TABLE_GROUPS;

/** Whole-table operations of the dev server (`agent-platform dev`); never wired outside dev mode. */
export class DevTablesRepository {
  constructor(private readonly prisma: PrismaClient) {}

  /** Empties the tables of each group (CASCADE: what refers to them goes too, as deleting them would take it). */
  async truncate(groups: TableGroup[]): Promise<void> {
    const tables = groups.flatMap((group) => TABLE_GROUPS[group]);
    if (tables.length > 0) await this.prisma.$executeRawUnsafe(`TRUNCATE ${tables.map((t) => `"${t}"`).join(', ')} CASCADE`);
  }
}
