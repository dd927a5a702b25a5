// The migration runner's behaviour, run on PGlite (unit) and on Postgres (integration) alike.
import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Database } from './database.types';
import { migrate, unappliedMigrations } from './migration-runner';
import { MigrationError } from './migration.error';

/** A fresh, empty database to run migrations on. */
export interface MigrationTestTarget {
  /** A handle on the target database; each call may return a new connection pool. */
  open(): Promise<Database>;
  dispose(): Promise<void>;
}

interface RecordedRow {
  migration_name: string;
  checksum: string;
  finished_at: Date | null;
  applied_steps_count: number;
}

export function describeMigrationRunner(createTarget: () => Promise<MigrationTestTarget>): void {
  let target: MigrationTestTarget;
  let db: Database;
  let dir: string;

  const write = async (name: string, sql: string) => {
    await fs.mkdir(path.join(dir, name), { recursive: true });
    await fs.writeFile(path.join(dir, name, 'migration.sql'), sql);
  };
  const recorded = () =>
    db.query<RecordedRow>(
      'SELECT migration_name, checksum, finished_at, applied_steps_count FROM "_prisma_migrations" ORDER BY migration_name',
    );
  const tableExists = async (table: string) =>
    (await db.query<{ name: string | null }>('SELECT to_regclass($1)::text AS name', [table]))[0]?.name !== null;

  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'migrations-'));
    target = await createTarget();
    db = await target.open();
  });
  afterEach(async () => {
    await target.dispose();
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('tells which migrations a database lacks (all, on an empty one) without applying any', async () => {
    await write('20240101000000_init', 'CREATE TABLE items (id int PRIMARY KEY);');
    await write('20240102000000_add_column', 'ALTER TABLE items ADD COLUMN note text;');
    expect(await unappliedMigrations(db, dir)).toEqual({ pending: ['20240101000000_init', '20240102000000_add_column'], total: 2 });
    expect(await tableExists('_prisma_migrations')).toBe(false);
    await migrate(db, dir);
    expect(await unappliedMigrations(db, dir)).toEqual({ pending: [], total: 2 });
    await write('20240103000000_more', 'ALTER TABLE items ADD COLUMN more text;');
    expect(await unappliedMigrations(db, dir)).toEqual({ pending: ['20240103000000_more'], total: 3 });
  });

  it('applies migrations in lexical order and records them as Prisma does', async () => {
    // Written out of order on purpose: the second depends on the first.
    await write('20240102000000_add_column', 'ALTER TABLE items ADD COLUMN note text;');
    await write('20240101000000_init', 'CREATE TABLE items (id int PRIMARY KEY);\nINSERT INTO items VALUES (1);');
    await fs.writeFile(path.join(dir, 'schema.snapshot.prisma'), '// not a migration');

    expect(await migrate(db, dir)).toEqual(['20240101000000_init', '20240102000000_add_column']);

    const sql = await fs.readFile(path.join(dir, '20240101000000_init', 'migration.sql'));
    const rows = await recorded();
    expect(rows.map((row) => row.migration_name)).toEqual(['20240101000000_init', '20240102000000_add_column']);
    expect(rows[0]?.checksum).toBe(createHash('sha256').update(sql).digest('hex'));
    expect(rows.every((row) => row.finished_at instanceof Date && row.applied_steps_count === 1)).toBe(true);
    expect(await db.query('SELECT id, note FROM items')).toEqual([{ id: 1, note: null }]);
  });

  it('skips applied migrations and applies only new ones', async () => {
    await write('20240101000000_init', 'CREATE TABLE items (id int PRIMARY KEY);');
    expect(await migrate(db, dir)).toEqual(['20240101000000_init']);
    expect(await migrate(db, dir)).toEqual([]);

    await write('20240102000000_more', 'CREATE TABLE more_items (id int PRIMARY KEY);');
    expect(await migrate(db, dir)).toEqual(['20240102000000_more']);
    expect((await recorded()).length).toBe(2);
  });

  it('refuses to run when an applied migration was modified, naming it', async () => {
    await write('20240101000000_init', 'CREATE TABLE items (id int PRIMARY KEY);');
    await migrate(db, dir);
    await write('20240101000000_init', 'CREATE TABLE items (id bigint PRIMARY KEY);');
    await write('20240102000000_more', 'CREATE TABLE more_items (id int PRIMARY KEY);');

    const failure = migrate(db, dir);
    await expect(failure).rejects.toThrow(MigrationError);
    await expect(failure).rejects.toThrow(/20240101000000_init.*modified/);
    expect(await tableExists('more_items')).toBe(false);
  });

  it('rolls back a failing migration, does not record it, and keeps the earlier ones', async () => {
    await write('20240101000000_init', 'CREATE TABLE items (id int PRIMARY KEY);');
    await write('20240102000000_broken', 'CREATE TABLE half_done (id int);\nSELECT 1 / 0;');
    await write('20240103000000_after', 'CREATE TABLE after_items (id int);');

    await expect(migrate(db, dir)).rejects.toMatchObject({
      name: 'MigrationError',
      migrationName: '20240102000000_broken',
      message: expect.stringMatching(/20240102000000_broken failed: division by zero/),
    });
    expect((await recorded()).map((row) => row.migration_name)).toEqual(['20240101000000_init']);
    expect(await tableExists('half_done')).toBe(false);
    expect(await tableExists('after_items')).toBe(false);

    // Once fixed, the run resumes where it stopped.
    await write('20240102000000_broken', 'CREATE TABLE half_done (id int);');
    expect(await migrate(db, dir)).toEqual(['20240102000000_broken', '20240103000000_after']);
  });

  it('applies each migration once when runners race', async () => {
    await write('20240101000000_init', 'CREATE TABLE items (id int PRIMARY KEY);\nSELECT pg_sleep(0.2);');
    await write('20240102000000_more', 'CREATE TABLE more_items (id int PRIMARY KEY);');
    const others = await Promise.all([target.open(), target.open()]);

    const results = await Promise.all([db, ...others].map((handle) => migrate(handle, dir)));

    expect(results.flat().sort()).toEqual(['20240101000000_init', '20240102000000_more']);
    expect((await recorded()).length).toBe(2);
  });

  it('fails clearly when the migrations directory does not exist', async () => {
    await expect(migrate(db, path.join(dir, 'missing'))).rejects.toThrow(/migrations directory not found/);
  });
}
