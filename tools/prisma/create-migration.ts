// `npm run migration:create -- <service> <name>`: writes prisma/<service>/migrations/<timestamp>_<name>/
// with the SQL that turns the schema as of the last migration into the current schema.prisma.
//
// "The schema as of the last migration" is prisma/<service>/migrations/schema.snapshot.prisma, a copy
// of schema.prisma this script refreshes with every migration it writes (commit it with them). It
// doesn't depend on git history or on a database's state, and two branches that change different
// models merge into a snapshot that holds both. `prisma migrate diff` needs a reachable Postgres (the
// CLI's WebAssembly engine connects through the pg adapter): DATABASE_URL, else the local default.
// Before keeping the new migration, every migration is applied to a scratch database to prove it runs.
import fs from 'node:fs/promises';
import path from 'node:path';
import { createScratchPostgresDatabase, migrate, openDatabase } from '@platform/prisma';
import { defaultDatabaseUrl, isService, migrationsPath, runPrisma, schemaPath, services, type Service } from './prisma-cli';

const snapshotHeader =
  '// The schema as of the newest migration in this folder, kept by `npm run migration:create`. Do not edit.\n';

async function exists(file: string): Promise<boolean> {
  return fs.access(file).then(
    () => true,
    () => false,
  );
}

/** `YYYYMMDDHHMMSS` in UTC, later than every existing migration even if the clock is not. */
function nextTimestamp(existing: string[]): string {
  const now = new Date().toISOString().replace(/\D/g, '').slice(0, 14);
  const last = existing.map((name) => name.slice(0, 14)).sort().at(-1);
  if (!last || now > last) return now;
  return (BigInt(last) + 1n).toString();
}

async function diff(service: Service, snapshot: string | undefined, url: string): Promise<string | undefined> {
  const from = snapshot ? ['--from-schema-datamodel', snapshot] : ['--from-empty'];
  const args = ['migrate', 'diff', ...from, '--to-schema-datamodel', schemaPath(service), '--script', '--exit-code'];
  const result = await runPrisma(service, args, { DATABASE_URL: url });
  // --exit-code: 0 = no difference, 2 = a difference (printed), anything else = failure.
  if (result.code === 0) return undefined;
  if (result.code === 2) return result.stdout;
  throw new Error(`prisma migrate diff failed (is Postgres reachable at ${url}?):\n${result.stdout}${result.stderr}`);
}

async function checkApplies(migrationsDir: string, url: string): Promise<void> {
  const scratch = await createScratchPostgresDatabase(url);
  const db = await openDatabase({ url: scratch.url, dataDir: '' });
  try {
    await migrate(db, migrationsDir);
  } finally {
    await db.close();
    await scratch.drop();
  }
}

async function main(): Promise<void> {
  const [service, rawName] = process.argv.slice(2);
  const name = rawName?.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
  if (!isService(service) || !name) {
    console.error(`usage: npm run migration:create -- <${services.join('|')}> <name>`);
    process.exitCode = 2;
    return;
  }
  const url = process.env['DATABASE_URL'] || defaultDatabaseUrl;
  const migrationsDir = migrationsPath(service);
  const snapshotFile = path.join(migrationsDir, 'schema.snapshot.prisma');
  await fs.mkdir(migrationsDir, { recursive: true });
  const existing = (await fs.readdir(migrationsDir, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
  const hasSnapshot = await exists(snapshotFile);
  if (existing.length > 0 && !hasSnapshot) {
    throw new Error(`${snapshotFile} is missing: cannot tell the schema as of the last migration`);
  }

  const sql = await diff(service, hasSnapshot ? snapshotFile : undefined, url);
  if (sql === undefined) {
    console.log(`no changes: prisma/${service}/schema.prisma matches its last migration; nothing written`);
    return;
  }

  const folder = path.join(migrationsDir, `${nextTimestamp(existing)}_${name}`);
  await fs.mkdir(folder);
  await fs.writeFile(path.join(folder, 'migration.sql'), sql);
  try {
    await checkApplies(migrationsDir, url);
  } catch (err) {
    await fs.rm(folder, { recursive: true, force: true });
    throw new Error(`the new migration does not apply on a scratch database; nothing written`, { cause: err });
  }
  await fs.writeFile(snapshotFile, snapshotHeader + (await fs.readFile(schemaPath(service), 'utf8')));
  console.log(`created ${path.relative(process.cwd(), path.join(folder, 'migration.sql'))}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
