// Test support for the export orchestration: a migrated export database of the test's own (Postgres when
// DATABASE_URL is set, else PGlite), seeded destinations/exports and a movable clock.
import { randomBytes, randomUUID } from 'node:crypto';
import { CredentialCipher, type S3Credentials } from '@platform/export-s3';
import { createScratchPostgresDatabase } from '@platform/prisma';
import { openExportDatabase, type ExportDatabase } from './export-database';
import type { BulkExport } from './bulk-export';
import type { DestinationConfig } from './destination';
import { DestinationsRepository } from './destinations.repository';
import { DEFAULT_EXPORT_SETTINGS, type Clock, type ExportSettings } from './export-settings';
import { ExportsRepository } from './exports.repository';

export interface TestExportDb {
  db: ExportDatabase;
  /** Another client on the same database (a second replica) when on Postgres; the same one on PGlite. */
  openReplica(): Promise<ExportDatabase>;
  close(): Promise<void>;
}

// (Domain libs may not import @platform/testing, hence the scratch database from @platform/prisma.)
export async function openTestExportDb(): Promise<TestExportDb> {
  const adminUrl = process.env['DATABASE_URL']?.trim();
  if (!adminUrl && process.env['REQUIRE_SERVICES'] === '1') throw new Error('DATABASE_URL must be set when REQUIRE_SERVICES=1');
  const scratch = adminUrl ? await createScratchPostgresDatabase(adminUrl) : undefined;
  const where = { url: scratch?.url, dataDir: 'memory://', drop: async () => scratch?.drop() };
  const db = await openExportDatabase({ url: where.url, dataDir: where.dataDir });
  await db.migrate();
  const replicas: ExportDatabase[] = [];
  return {
    db,
    async openReplica() {
      if (!where.url) return db;
      const replica = await openExportDatabase({ url: where.url, dataDir: '' });
      replicas.push(replica);
      return replica;
    },
    async close() {
      for (const r of replicas) await r.close();
      await db.close();
      await where.drop();
    },
  };
}

export const testCipher = () => new CredentialCipher(randomBytes(32));

/** A clock tests move by hand. */
export function manualClock(start = new Date('2024-06-01T00:00:00Z')): Clock & { advance(ms: number): void; set(d: Date): void } {
  let now = start.getTime();
  const clock = (() => new Date(now)) as Clock & { advance(ms: number): void; set(d: Date): void };
  clock.advance = (ms) => {
    now += ms;
  };
  clock.set = (d) => {
    now = d.getTime();
  };
  return clock;
}

export function testSettings(overrides: Partial<ExportSettings> = {}): ExportSettings {
  return { ...DEFAULT_EXPORT_SETTINGS, ...overrides };
}

export const TEST_DESTINATION_CONFIG: DestinationConfig = {
  bucket_name: 'exports',
  prefix: 'team',
  region: 'us-east-1',
  endpoint_url: 'http://127.0.0.1:9',
  include_bucket_in_prefix: false,
  config_kwargs_s3: { addressing_style: 'path' },
};

export async function seedDestination(
  repo: DestinationsRepository,
  tenantId: string,
  credentials: S3Credentials | null = { access_key_id: 'AKIA-TEST', secret_access_key: 'secret-test' },
  config: DestinationConfig = TEST_DESTINATION_CONFIG,
) {
  return repo.create({ id: randomUUID(), tenantId, displayName: 'test', config, credentials, credentialsKeys: credentials ? Object.keys(credentials) : [] });
}

/** A one-off export of `days` whole UTC days from `start` (one run per day). */
export function seedExport(
  repo: ExportsRepository,
  input: { tenantId: string; destinationId: string; days: number; start?: Date; filter?: string },
): Promise<BulkExport> {
  const start = input.start ?? new Date('2024-05-01T00:00:00Z');
  return repo.create({
    tenantId: input.tenantId,
    destinationId: input.destinationId,
    sessionId: randomUUID(),
    startTime: start,
    endTime: new Date(start.getTime() + input.days * 86_400_000),
    status: 'Created',
    format: 'Parquet',
    formatVersion: 'v1',
    compression: 'gzip',
    filter: input.filter ?? null,
    exportFields: [],
    intervalHours: null,
  });
}
