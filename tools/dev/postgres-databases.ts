import pg from 'pg';
import { closeToPublic, databaseOf, derivedPassword, ensureOwnedDatabase, exactly } from '@platform/control-plane-drivers';

/** Whether the URL's user may make roles (a superuser, or CREATEROLE). */
async function makesRoles(serverUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ yes: boolean }>('SELECT rolsuper OR rolcreaterole AS yes FROM pg_roles WHERE rolname = current_user');
    return rows[0]?.yes === true;
  } finally {
    await client.end();
  }
}

/** The database `name` as the server URL's own user (one that may not make roles): made if missing. */
async function databaseAsServerUser(serverUrl: string, name: string): Promise<string> {
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

/**
 * Makes sure database `name` exists on the server of `serverUrl` and returns the URL the service connects with.
 * Used when one DATABASE_URL is given for all services: each still gets a database of its own and, when that URL
 * may make roles (a superuser, or CREATEROLE), a LOGIN role of the same name that owns it and nothing else (no
 * superuser, no CREATEDB/CREATEROLE; CONNECT revoked from PUBLIC on it), so a service reaches only its own database.
 * The role's password is derived from the server URL, so every launcher on that server agrees on it.
 */
export async function ensurePostgresDatabase(serverUrl: string, name: string): Promise<string> {
  if (!(await makesRoles(serverUrl))) return databaseAsServerUser(serverUrl, name);
  return ensureOwnedDatabase(serverUrl, name, derivedPassword(serverUrl, name));
}

/**
 * CONNECT and TEMPORARY revoked from PUBLIC on the server URL's own database and template1 (where this user may),
 * so the services' and deployments' roles cannot connect there; returns those it may not change.
 */
export function closeServerDatabases(serverUrl: string): Promise<string[]> {
  return closeToPublic(serverUrl, [exactly(databaseOf(serverUrl)), 'template1']);
}
