// Shared Prisma CLI config; each `prisma/<service>/prisma.config.ts` calls `serviceConfig(service)`.
// `engine: 'js'` + a driver adapter make the CLI use its WebAssembly engines, so nothing is ever
// downloaded. The schema must be named here (not only with `--schema`): the CLI's engine check reads
// it from the config, and without it falls back to downloading the native query engine.
// The adapter is only connected by commands that need a database (`migrate diff`); `generate` never opens it.
import path from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { defineConfig } from 'prisma/config';

const defaultUrl = 'postgres://postgres@127.0.0.1:5432/postgres';

/** The Prisma CLI config of one service (`prisma/<service>/schema.prisma`). */
export function serviceConfig(service: string) {
  const dir = path.join(__dirname, service);
  return defineConfig({
    schema: path.join(dir, 'schema.prisma'),
    migrations: { path: path.join(dir, 'migrations') },
    experimental: { adapter: true },
    engine: 'js',
    adapter: async () => new PrismaPg({ connectionString: process.env['DATABASE_URL'] || defaultUrl }),
  });
}
