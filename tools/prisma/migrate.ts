// `npm run migrate -- <service>|all`: applies pending migrations of prisma/<service>/migrations.
// Database per service: DATABASE_URL_<SERVICE> (e.g. DATABASE_URL_CONTROL_PLANE), else DATABASE_URL,
// else the embedded PGlite at .data/<service> (what the services use without a URL).
import path from 'node:path';
import { migrate, openDatabase } from '@platform/prisma';
import { isService, migrationsPath, services, workspaceRoot, type Service } from './prisma-cli';

function databaseUrl(service: Service): string | undefined {
  const own = `DATABASE_URL_${service.toUpperCase().replace(/-/g, '_')}`;
  return process.env[own] || process.env['DATABASE_URL'] || undefined;
}

const logger = {
  info: (fields: object, msg: string) => console.log(msg, JSON.stringify(fields)),
  warn: (fields: object, msg: string) => console.warn(msg, JSON.stringify(fields)),
};

async function migrateService(service: Service): Promise<void> {
  const url = databaseUrl(service);
  const dataDir = path.join(workspaceRoot, '.data', service);
  const db = await openDatabase({ url, dataDir });
  try {
    const where = url ? new URL(url).host + new URL(url).pathname : path.relative(process.cwd(), dataDir);
    const applied = await migrate(db, migrationsPath(service), logger);
    console.log(`${service} (${db.kind} ${where}): ${applied.length ? `applied ${applied.join(', ')}` : 'up to date'}`);
  } finally {
    await db.close();
  }
}

async function main(): Promise<void> {
  const target = process.argv[2];
  if (target !== 'all' && !isService(target)) {
    console.error(`usage: npm run migrate -- <${services.join('|')}|all>`);
    process.exitCode = 2;
    return;
  }
  // One at a time: services may share one database (DATABASE_URL), and the output stays readable.
  for (const service of target === 'all' ? services : [target]) await migrateService(service);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exitCode = 1;
});
