import { randomUUID } from 'node:crypto';
import { silentLogger } from '@platform/logging';
import { DestinationsRepository, ExportsRepository, SchedulesRepository } from '@platform/export-data-access';
import { manualClock, openTestExportDb, seedDestination, testCipher, testSettings, type TestExportDb } from '@platform/export-data-access/testing';
import { cancelExport } from './cancel-export.usecase';
import { spawnScheduledExports, type SchedulerDeps } from './scheduler';

jest.setTimeout(60_000);

const HOUR = 3_600_000;
const settings = testSettings({ scheduleSpawnDelayMs: 10 * 60_000 });
let t: TestExportDb;

beforeAll(async () => {
  t = await openTestExportDb();
});
afterAll(() => t?.close());

async function scheduleFixture(intervalHours: number, start: Date) {
  const prisma = t.db.prisma;
  const tenantId = randomUUID();
  const dest = await seedDestination(new DestinationsRepository(prisma, testCipher()), tenantId);
  const exports = new ExportsRepository(prisma);
  const parent = await exports.create({
    tenantId,
    destinationId: dest.id,
    sessionId: randomUUID(),
    startTime: start,
    endTime: null,
    status: 'IntervalScheduled',
    format: 'Parquet',
    formatVersion: 'v2_beta',
    compression: 'zstandard',
    filter: 'eq(run_type, "llm")',
    exportFields: ['id', 'name'],
    intervalHours,
  });
  return { tenantId, exports, parent };
}

const windows = (spawned: { startTime: Date; endTime: Date | null }[]) =>
  spawned.map((e) => [e.startTime.toISOString(), e.endTime?.toISOString()]);

describe('scheduled exports', () => {
  it('spawns window k = [start + (k-1)h, start + kh) at its end + 10 min, with source_bulk_export_id and the parent settings', async () => {
    const start = new Date('2024-05-01T00:00:00Z');
    const { tenantId, exports, parent } = await scheduleFixture(6, start);
    expect(parent).toMatchObject({ status: 'IntervalScheduled', endTime: null });
    expect(await exports.runsOf(parent.id)).toEqual([]);
    const clock = manualClock(new Date(start.getTime() + 6 * HOUR + 10 * 60_000 - 1));
    const deps: SchedulerDeps = { schedules: new SchedulesRepository(t.db.prisma), clock, logger: silentLogger, settings };

    await spawnScheduledExports(deps);
    expect(await exports.spawnedBy(tenantId, parent.id)).toEqual([]);
    clock.advance(1);
    await spawnScheduledExports(deps);
    const [first] = await exports.spawnedBy(tenantId, parent.id);
    expect(windows([first])).toEqual([['2024-05-01T00:00:00.000Z', '2024-05-01T06:00:00.000Z']]);
    expect(first).toMatchObject({
      status: 'Created',
      sourceBulkExportId: parent.id,
      scheduleWindow: 1,
      sessionId: parent.sessionId,
      destinationId: parent.destinationId,
      formatVersion: 'v2_beta',
      compression: 'zstandard',
      filter: 'eq(run_type, "llm")',
      exportFields: ['id', 'name'],
      intervalHours: null,
    });
    expect((await exports.runsOf(first.id)).map((r) => [r.startTime.toISOString(), r.endTime.toISOString()])).toEqual([
      ['2024-05-01T00:00:00.000Z', '2024-05-01T06:00:00.000Z'],
    ]);
  });

  it('spawns each window once across concurrent schedulers and restarts; cancelling stops spawning but spares spawned exports', async () => {
    const start = new Date('2024-05-01T20:00:00Z');
    const { tenantId, exports, parent } = await scheduleFixture(24, start);
    const clock = manualClock(new Date(start.getTime() + 5 * 24 * HOUR + 10 * 60_000));
    const replicas = [t.db, await t.openReplica(), await t.openReplica()];
    const schedulers = replicas.map((db): SchedulerDeps => ({ schedules: new SchedulesRepository(db.prisma), clock, logger: silentLogger, settings }));

    const counts = await Promise.all(schedulers.map((d) => spawnScheduledExports(d)));
    const spawned = await exports.spawnedBy(tenantId, parent.id);
    expect(spawned.map((e) => e.scheduleWindow)).toEqual([1, 2, 3, 4, 5]);
    expect(counts.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(5);
    expect(windows(spawned.slice(0, 2))).toEqual([
      ['2024-05-01T20:00:00.000Z', '2024-05-02T20:00:00.000Z'],
      ['2024-05-02T20:00:00.000Z', '2024-05-03T20:00:00.000Z'],
    ]);
    // A 24 h window across UTC midnight: two runs.
    expect(await exports.runsOf(spawned[0].id)).toHaveLength(2);

    // A restarted scheduler (a fresh one, same time) spawns nothing new.
    await spawnScheduledExports({ schedules: new SchedulesRepository(t.db.prisma), clock, logger: silentLogger, settings });
    expect(await exports.spawnedBy(tenantId, parent.id)).toHaveLength(5);

    await cancelExport({ exports, clock }, tenantId, parent.id);
    clock.advance(3 * 24 * HOUR);
    await spawnScheduledExports(schedulers[0]);
    const after = await exports.spawnedBy(tenantId, parent.id);
    expect(after).toHaveLength(5);
    expect(after.every((e) => e.status === 'Created')).toBe(true);
    expect((await exports.find(tenantId, parent.id))?.status).toBe('Cancelled');
  });
});
