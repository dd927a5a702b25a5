import pg from 'pg';

/**
 * Makes sure database `name` exists on the server of `serverUrl` and returns its URL.
 * Used when one DATABASE_URL is given for all services: each still gets a database of its own.
 */
export async function ensurePostgresDatabase(serverUrl: string, name: string): Promise<string> {
  const client = new pg.Client({ connectionString: serverUrl });
  client.on('error', () => undefined);
  await client.connect();
  try {
    const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await client.query(`CREATE DATABASE "${name}"`);
      } catch (err) {
        // Another launcher created it in the meantime.
        if ((err as { code?: string }).code !== '42P04') throw err;
      }
    }
  } finally {
    await client.end();
  }
  const target = new URL(serverUrl);
  target.pathname = `/${name}`;
  return target.toString();
}
