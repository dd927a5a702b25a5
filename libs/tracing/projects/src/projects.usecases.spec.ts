import { randomUUID } from 'node:crypto';
import { ConflictError, NotFoundError, ValidationError } from '@platform/errors';
import { openTracingDatabase, TracingProjectsRepository, type TracingDatabase } from '@platform/tracing-data-access';
import { createProject } from './create-project.usecase';
import { deleteProject } from './delete-project.usecase';
import { getProject } from './get-project.usecase';
import { updateProject } from './update-project.usecase';

let db: TracingDatabase;
let store: TracingProjectsRepository;

beforeAll(async () => {
  db = await openTracingDatabase({ dataDir: 'memory://' });
  await db.migrate();
  store = new TracingProjectsRepository(db.prisma);
});
afterAll(() => db?.close());

describe('tracing projects (in-memory PGlite)', () => {
  it('creates, refuses a duplicate name, and upserts when asked', async () => {
    const tenantId = randomUUID();
    const first = await createProject(store, { tenantId, name: 'p', description: 'one' });
    await expect(createProject(store, { tenantId, name: 'p' })).rejects.toThrow(ConflictError);
    const again = await createProject(store, { tenantId, name: 'p', extra: { metadata: { v: 2 } } }, { upsert: true });
    expect(again).toMatchObject({ id: first.id, description: 'one', extra: { metadata: { v: 2 } } });
    const fresh = await createProject(store, { tenantId, name: 'q' }, { upsert: true });
    expect(fresh.id).not.toBe(first.id);
  });

  it('updates the fields given, end time included, and refuses a rename onto another project', async () => {
    const tenantId = randomUUID();
    const p = await createProject(store, { tenantId, name: 'a', description: 'keep me' });
    await createProject(store, { tenantId, name: 'b' });
    const updated = await updateProject(store, tenantId, p.id, { name: 'c', endTime: new Date('2024-05-01T12:00:00Z') });
    expect(updated).toMatchObject({ name: 'c', description: 'keep me', endTime: new Date('2024-05-01T12:00:00Z') });
    await expect(updateProject(store, tenantId, p.id, { name: 'b' })).rejects.toThrow(ConflictError);
    await expect(updateProject(store, randomUUID(), p.id, { name: 'x' })).rejects.toThrow(NotFoundError);
    await expect(getProject(store, tenantId, 'not-a-uuid')).rejects.toThrow(ValidationError);
  });

  it('deletes a project with its runs, their feedback and attachments, and nothing of other projects', async () => {
    const tenantId = randomUUID();
    const doomed = await createProject(store, { tenantId, name: 'doomed' });
    const kept = await createProject(store, { tenantId, name: 'kept' });
    const [r1, r2] = [randomUUID(), randomUUID()];
    await db.prisma.run.createMany({ data: [{ tenantId, id: r1, sessionId: doomed.id }, { tenantId, id: r2, sessionId: kept.id }] });
    await db.prisma.feedback.createMany({
      data: [
        { tenantId, id: randomUUID(), runId: r1, key: 'k' },
        { tenantId, id: randomUUID(), runId: r2, key: 'k' },
      ],
    });
    const file = { contentType: 'text/plain', size: 1, data: Buffer.from('x') };
    await db.prisma.runAttachment.createMany({ data: [{ tenantId, runId: r1, name: 'a', ...file }, { tenantId, runId: r2, name: 'a', ...file }] });
    await deleteProject(store, tenantId, doomed.id);
    expect(await db.prisma.run.findMany({ where: { tenantId }, select: { id: true } })).toEqual([{ id: r2 }]);
    expect(await db.prisma.feedback.count({ where: { tenantId } })).toBe(1);
    expect(await db.prisma.runAttachment.findMany({ where: { tenantId }, select: { runId: true } })).toEqual([{ runId: r2 }]);
    await expect(deleteProject(store, tenantId, doomed.id)).rejects.toThrow(NotFoundError);
  });

  it('finds or creates projects by name, and tells which ids exist', async () => {
    const tenantId = randomUUID();
    const existing = await createProject(store, { tenantId, name: 'there' });
    const ids = await store.ensureNamed(tenantId, ['there', 'new']);
    expect(ids.get('there')).toBe(existing.id);
    expect(await store.ensureNamed(tenantId, ['new'])).toEqual(new Map([['new', ids.get('new')]]));
    expect(await store.existingIds(tenantId, [existing.id, randomUUID()])).toEqual(new Set([existing.id]));
    expect(await store.existingIds(randomUUID(), [existing.id])).toEqual(new Set());
  });
});
