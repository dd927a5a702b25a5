import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A throw-away database; `drop()` removes it even while connections are still open. */
export interface ScratchDatabase {
  url: string;
  drop(): Promise<void>;
}

async function onAdmin(adminUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  // The statement in flight fails on its own; without a listener a dropped connection would end the process.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/**
 * Creates a uniquely named database on the server of `adminUrl` (a role allowed to CREATE DATABASE),
 * for tests that need a Postgres database of their own.
 */
export async function createScratchPostgresDatabase(adminUrl: string): Promise<ScratchDatabase> {
  // Lower-case letters, digits and _ only, so the name needs no quoting rules beyond "…".
  const name = `scratch_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
  await onAdmin(adminUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  let dropped = false;
  return {
    url: url.toString(),
    drop: async () => {
      if (dropped) return;
      dropped = true;
      // FORCE (Postgres 13+) ends sessions a test forgot to close.
      await onAdmin(adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}
