import type { Prisma, PrismaClient } from '@platform/tracing-data-access';
import { mapPrismaError } from '@platform/prisma';
import type { NewTracingProject, ProjectQuery, TracingProject, TracingProjectStore } from './tracing-project';

type Row = Awaited<ReturnType<PrismaClient['tracingSession']['findUniqueOrThrow']>>;

function toProject(row: Row): TracingProject {
  return { ...row, extra: (row.extra ?? null) as Record<string, unknown> | null };
}

/** Tracing projects in the tracing service's database. */
export class PrismaTracingProjectStore implements TracingProjectStore {
  constructor(private readonly prisma: PrismaClient) {}

  async create(project: NewTracingProject): Promise<TracingProject> {
    const row = await this.prisma.tracingSession
      .create({
        data: {
          tenantId: project.tenantId,
          name: project.name,
          description: project.description ?? null,
          extra: (project.extra ?? undefined) as Prisma.InputJsonValue | undefined,
        },
      })
      .catch((err: unknown) => {
        throw mapPrismaError(err, { conflict: `A tracing project named "${project.name}" already exists` });
      });
    return toProject(row);
  }

  async find(tenantId: string, id: string): Promise<TracingProject | null> {
    const row = await this.prisma.tracingSession.findFirst({ where: { id, tenantId } });
    return row && toProject(row);
  }

  async list(query: ProjectQuery): Promise<TracingProject[]> {
    const rows = await this.prisma.tracingSession.findMany({
      where: {
        tenantId: query.tenantId,
        ...(query.name !== undefined ? { name: query.name } : {}),
        ...(query.nameContains ? { name: { contains: query.nameContains, mode: 'insensitive' as const } } : {}),
        ...(query.ids?.length ? { id: { in: query.ids } } : {}),
      },
      orderBy: [{ startTime: 'desc' }, { id: 'desc' }],
      take: query.limit,
      skip: query.offset,
    });
    return rows.map(toProject);
  }
}
