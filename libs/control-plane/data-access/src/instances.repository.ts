import type { PrismaClient } from './generated/prisma/client';
import type { InstanceRecord, InstanceState } from './instance';

/** What the local driver remembers of the instances it started, so a successor can adopt or stop them. */
export class InstancesRepository {
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
