import { randomUUID } from 'node:crypto';
import { mapPrismaError } from '@platform/prisma';
import type { Prisma, PrismaClient } from './generated/prisma/client';
import type { NewTracingProject, ProjectQuery, TracingProject, TracingProjectChanges } from './tracing-project';
import { toProject } from './tracing-project-rows';

const json = (value: Record<string, unknown> | null | undefined) => (value ?? undefined) as Prisma.InputJsonValue | undefined;

// One statement inserts the names not taken and reads back those that are. A name inserted meanwhile by another
// transaction is in neither half (this statement's snapshot predates it); the caller reads those once more.
const ENSURE_NAMED_SQL = `WITH input AS (
  SELECT i.id, i.name FROM jsonb_to_recordset($2::jsonb) AS i(id uuid, name text)
), inserted AS (
  INSERT INTO tracing_sessions (id, tenant_id, name, updated_at)
  SELECT input.id, $1::uuid, input.name, now() FROM input
  ON CONFLICT (tenant_id, name) DO NOTHING
  RETURNING id::text AS id, name
)
SELECT id, name FROM inserted
UNION ALL
SELECT s.id::text AS id, s.name FROM tracing_sessions s JOIN input ON s.name = input.name WHERE s.tenant_id = $1::uuid`;

const FIND_NAMED_SQL = `SELECT s.id::text AS id, s.name FROM tracing_sessions s
WHERE s.tenant_id = $1::uuid AND s.name IN (SELECT jsonb_array_elements_text($2::jsonb))`;

const EXISTING_IDS_SQL = `SELECT s.id::text AS id FROM tracing_sessions s
WHERE s.tenant_id = $1::uuid AND s.id IN (SELECT (jsonb_array_elements_text($2::jsonb))::uuid)`;

const DELETE_FEEDBACK_SQL = `DELETE FROM feedback f USING runs r
WHERE f.tenant_id = $1::uuid AND r.tenant_id = $1::uuid AND r.session_id = $2::uuid AND f.run_id = r.id`;

const DELETE_ATTACHMENTS_SQL = `DELETE FROM run_attachments a USING runs r
WHERE a.tenant_id = $1::uuid AND r.tenant_id = $1::uuid AND r.session_id = $2::uuid AND a.run_id = r.id`;

/** Tracing projects in the tracing service's database. */
export class TracingProjectsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async create(project: NewTracingProject): Promise<TracingProject> {
    const row = await this.prisma.tracingSession
      .create({
        data: { tenantId: project.tenantId, name: project.name, description: project.description ?? null, extra: json(project.extra) },
      })
      .catch((err: unknown) => {
        throw mapPrismaError(err, { conflict: `A tracing project named "${project.name}" already exists` });
      });
    return toProject(row);
  }

  /** Creates the project, or updates the description and extra given of the one with its name. */
  async upsert(project: NewTracingProject): Promise<TracingProject> {
    const row = await this.prisma.tracingSession.upsert({
      where: { tenantId_name: { tenantId: project.tenantId, name: project.name } },
      create: { tenantId: project.tenantId, name: project.name, description: project.description ?? null, extra: json(project.extra) },
      update: {
        ...(project.description != null ? { description: project.description } : {}),
        ...(project.extra != null ? { extra: json(project.extra) } : {}),
      },
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

  /** Null when the project does not exist in the workspace. */
  async update(tenantId: string, id: string, changes: TracingProjectChanges): Promise<TracingProject | null> {
    const { count } = await this.prisma.tracingSession
      .updateMany({
        where: { id, tenantId },
        data: {
          ...(changes.name !== undefined ? { name: changes.name } : {}),
          ...(changes.description !== undefined ? { description: changes.description } : {}),
          ...(changes.extra !== undefined ? { extra: json(changes.extra) } : {}),
          ...(changes.endTime !== undefined ? { endTime: changes.endTime } : {}),
        },
      })
      .catch((err: unknown) => {
        throw mapPrismaError(err, { conflict: `A tracing project named "${changes.name}" already exists` });
      });
    return count ? this.find(tenantId, id) : null;
  }

  /** Deletes a project with its runs and their feedback; false when it does not exist in the workspace. */
  async delete(tenantId: string, id: string): Promise<boolean> {
    return this.prisma.$transaction(async (tx) => {
      await tx.$executeRawUnsafe(DELETE_FEEDBACK_SQL, tenantId, id);
      await tx.$executeRawUnsafe(DELETE_ATTACHMENTS_SQL, tenantId, id);
      await tx.run.deleteMany({ where: { tenantId, sessionId: id } });
      const { count } = await tx.tracingSession.deleteMany({ where: { tenantId, id } });
      return count > 0;
    });
  }

  /** Ids of the projects with these names, creating the missing ones (safe against concurrent creators). */
  async ensureNamed(tenantId: string, names: string[]): Promise<Map<string, string>> {
    const input = JSON.stringify(names.map((name) => ({ id: randomUUID(), name })));
    const rows = await this.prisma.$queryRawUnsafe<{ id: string; name: string }[]>(ENSURE_NAMED_SQL, tenantId, input);
    const found = new Map(rows.map((r) => [r.name, r.id]));
    const missing = names.filter((n) => !found.has(n));
    if (missing.length) {
      const more = await this.prisma.$queryRawUnsafe<{ id: string; name: string }[]>(FIND_NAMED_SQL, tenantId, JSON.stringify(missing));
      for (const r of more) found.set(r.name, r.id);
    }
    return found;
  }

  /** Those of `ids` that are projects of the workspace. */
  async existingIds(tenantId: string, ids: string[]): Promise<Set<string>> {
    const rows = await this.prisma.$queryRawUnsafe<{ id: string }[]>(EXISTING_IDS_SQL, tenantId, JSON.stringify(ids));
    return new Set(rows.map((r) => r.id));
  }
}
