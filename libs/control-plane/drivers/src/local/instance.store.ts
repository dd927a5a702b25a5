import type { PrismaClient } from '@platform/control-plane-data-access';

export type InstanceState = 'starting' | 'serving' | 'draining';

export interface InstanceRecord {
  id: string;
  deploymentId: string;
  revisionId: string;
  driver: string;
  state: InstanceState;
  url: string | null;
  pid: number | null;
}

/** What a driver remembers of the instances it started, so a successor can adopt or stop them. */
export interface InstanceStore {
  create(record: InstanceRecord): Promise<void>;
  update(id: string, changes: Partial<Pick<InstanceRecord, 'state' | 'url' | 'pid'>>): Promise<void>;
  remove(id: string): Promise<void>;
  list(driver: string): Promise<InstanceRecord[]>;
}

export class PrismaInstanceStore implements InstanceStore {
  constructor(private readonly prisma: PrismaClient) {}

  async create(record: InstanceRecord): Promise<void> {
    await this.prisma.instance.create({ data: record });
  }

  async update(id: string, changes: Partial<Pick<InstanceRecord, 'state' | 'url' | 'pid'>>): Promise<void> {
    await this.prisma.instance.updateMany({ where: { id }, data: changes });
  }

  async remove(id: string): Promise<void> {
    await this.prisma.instance.deleteMany({ where: { id } });
  }

  async list(driver: string): Promise<InstanceRecord[]> {
    const rows = await this.prisma.instance.findMany({ where: { driver }, orderBy: { createdAt: 'asc' } });
    return rows.map((r) => ({ ...r, state: r.state as InstanceState }));
  }
}
