import { createHmac, randomBytes } from 'node:crypto';
import pg from 'pg';

// Names are spliced into SQL (identifiers cannot be bound as parameters): lower-case letters, digits and `_` only.
const SAFE_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function assertSafeName(name: string): string {
  if (!SAFE_NAME.test(name)) throw new Error(`unsafe database or role name ${name}`);
  return name;
}

/** A fresh random password (URL- and SQL-literal-safe). */
export const randomPassword = (): string => randomBytes(24).toString('base64url');

/**
 * A password derived from the operator's superuser URL and the role's name: the same on every start of every
 * launcher (so one that starts later does not change another's password), secret as long as that URL is.
 */
export const derivedPassword = (adminUrl: string, role: string): string =>
  createHmac('sha256', adminUrl).update(`agent-platform role ${role}`).digest('base64url');

/** `url` pointed at database `name`, as role `name` with `password`. */
export function roleUrl(adminUrl: string, name: string, password: string): string {
  const url = new URL(adminUrl);
  url.username = name;
  url.password = password;
  url.pathname = `/${name}`;
  return url.toString();
}

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  // An 'error' after connect (the server went away) must not crash the process; the query in flight rejects anyway.
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * Runs `work` on a connection to the admin URL holding an advisory lock: two writers of the same role or database
 * ACL at once (two launchers, a launcher and a control plane on one server) would fail with "tuple concurrently
 * updated"; one after the other, each finds what the other did.
 */
function asAdmin<T>(adminUrl: string, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  return withClient(adminUrl, async (admin) => {
    await admin.query(`SELECT pg_advisory_lock(hashtext('agent-platform database roles'))`);
    return work(admin); // the lock ends with the connection
  });
}

const ROLE_ATTRIBUTES = 'LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS INHERIT';

/**
 * Hands every object in the connected database's own schemas to `owner`: schemas, tables, views, sequences (those
 * of a table follow it), routines and types. Objects of extensions are left as they are (their owner is the
 * extension's). One DO block, so a cut-off run changes nothing and the next one does it all.
 */
const handOver = (owner: string) => `
DO $$
DECLARE
  r record;
  own CONSTANT text := '${owner}';
BEGIN
  FOR r IN SELECT n.nspname FROM pg_namespace n
      WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' AND pg_get_userbyid(n.nspowner) <> own
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_namespace'::regclass AND d.objid = n.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER SCHEMA %I OWNER TO %I', r.nspname, own);
  END LOOP;
  FOR r IN SELECT c.oid::regclass AS rel, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
        AND pg_get_userbyid(c.relowner) <> own
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER %s %s OWNER TO %I',
      CASE r.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, r.rel, own);
  END LOOP;
  -- Sequences of a table moved with it above; those left stand alone.
  FOR r IN SELECT c.oid::regclass AS rel FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' AND c.relkind = 'S'
        AND pg_get_userbyid(c.relowner) <> own
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype IN ('e', 'a', 'i'))
  LOOP
    EXECUTE format('ALTER SEQUENCE %s OWNER TO %I', r.rel, own);
  END LOOP;
  FOR r IN SELECT p.oid::regprocedure AS routine FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
      WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' AND p.prokind IN ('f', 'p')
        AND pg_get_userbyid(p.proowner) <> own
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER ROUTINE %s OWNER TO %I', r.routine, own);
  END LOOP;
  -- Enums, domains, ranges and free-standing composite types (a table's row type and array types follow their owner).
  FOR r IN SELECT t.oid::regtype AS typ FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
      WHERE n.nspname NOT LIKE 'pg\\_%' AND n.nspname <> 'information_schema' AND t.typtype IN ('e', 'd', 'r', 'c')
        AND (t.typrelid = 0 OR (SELECT c.relkind FROM pg_class c WHERE c.oid = t.typrelid) = 'c')
        AND pg_get_userbyid(t.typowner) <> own
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')
  LOOP
    EXECUTE format('ALTER TYPE %s OWNER TO %I', r.typ, own);
  END LOOP;
  -- Postgres 14 and older let PUBLIC create in "public"; no one but the owner does here.
  IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = 'public') THEN
    REVOKE CREATE ON SCHEMA public FROM PUBLIC;
  END IF;
END $$`;

/**
 * Makes database `name` exist, owned by the LOGIN role `name` (same name) whose password is set to `password`, and
 * nothing more: NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS. CONNECT and TEMPORARY are revoked
 * from PUBLIC on it, so no other role but the owner (and superusers) connects; whatever is already in it (tables
 * an earlier owner made, e.g. the superuser before roles existed) is handed to the role, so its migrations can alter
 * them. Every step tolerates what a previous, cut-off run left, so running it again finishes the work.
 * `adminUrl` is a superuser, or a role with CREATEDB and CREATEROLE. Returns the database's URL as the role.
 */
export async function ensureOwnedDatabase(adminUrl: string, name: string, password: string): Promise<string> {
  assertSafeName(name);
  await asAdmin(adminUrl, async (admin) => {
    const literal = admin.escapeLiteral(password);
    const { rows } = await admin.query<{ rolsuper: boolean }>('SELECT rolsuper FROM pg_roles WHERE rolname = current_user');
    const superuser = rows[0]?.rolsuper === true;
    try {
      await admin.query(`CREATE ROLE "${name}" ${ROLE_ATTRIBUTES} PASSWORD ${literal}`);
    } catch (err) {
      if ((err as { code?: string }).code !== '42710') throw err; // duplicate_object: made by an earlier run
      // Only a superuser may even restate SUPERUSER, REPLICATION, BYPASSRLS; a CREATEROLE admin checks them instead.
      if (superuser) await admin.query(`ALTER ROLE "${name}" ${ROLE_ATTRIBUTES} PASSWORD ${literal}`);
      else {
        const found = await admin.query('SELECT 1 FROM pg_roles WHERE rolname = $1 AND (rolsuper OR rolreplication OR rolbypassrls)', [name]);
        if (found.rowCount !== 0) throw new Error(`role ${name} exists with powers a deployment's role must not have`);
        await admin.query(`ALTER ROLE "${name}" LOGIN NOCREATEDB NOCREATEROLE INHERIT PASSWORD ${literal}`);
      }
    }
    // A non-superuser may give a database only to a role it is a member of (it holds ADMIN on the roles it created).
    if (!superuser) await admin.query(`GRANT "${name}" TO CURRENT_USER`).catch(ignoreCode('42710'));
    const found = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (found.rowCount === 0) {
      try {
        await admin.query(`CREATE DATABASE "${name}" OWNER "${name}"`);
      } catch (err) {
        if ((err as { code?: string }).code !== '42P04') throw err; // duplicate_database: made meanwhile
      }
    }
    await admin.query(`ALTER DATABASE "${name}" OWNER TO "${name}"`);
    await admin.query(`REVOKE ALL ON DATABASE "${name}" FROM PUBLIC`);
    const inside = new URL(adminUrl);
    inside.pathname = `/${name}`;
    await withClient(inside.toString(), (owner) => owner.query(handOver(name)));
  });
  return roleUrl(adminUrl, name, password);
}

/** Drops database `name` (closing its sessions), then the role `name`. Both are idempotent: a cut-off run is finished by the next. */
export async function dropOwnedDatabase(adminUrl: string, name: string): Promise<void> {
  assertSafeName(name);
  await asAdmin(adminUrl, async (admin) => {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`DROP ROLE IF EXISTS "${name}"`);
  });
}

/**
 * Revokes CONNECT and TEMPORARY from PUBLIC on the databases named (those that exist and still grant either), so
 * only their owners and roles granted CONNECT reach them. `patterns` are LIKE patterns. Returns the databases still
 * open that this admin may not change (neither superuser nor a member of their owner): the operator must revoke
 * those themselves.
 */
export async function closeToPublic(adminUrl: string, patterns: string[]): Promise<string[]> {
  return asAdmin(adminUrl, async (admin) => {
    const { rows } = await admin.query<{ datname: string; allowed: boolean }>(
      `SELECT datname, (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) OR pg_has_role(datdba, 'MEMBER') AS allowed
         FROM pg_database
        WHERE datname LIKE ANY($1::text[]) AND (NOT datistemplate OR datname = 'template1')
          AND (has_database_privilege('public', oid, 'CONNECT') OR has_database_privilege('public', oid, 'TEMPORARY'))
        ORDER BY datname`,
      [patterns],
    );
    const refused: string[] = [];
    for (const { datname, allowed } of rows) {
      if (!allowed) refused.push(datname);
      else await admin.query(`REVOKE CONNECT, TEMPORARY ON DATABASE ${admin.escapeIdentifier(datname)} FROM PUBLIC`);
    }
    return refused;
  });
}

const likeEscape = (text: string): string => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `LIKE` pattern matching names that start with `prefix`. */
export const startsWith = (prefix: string): string => `${likeEscape(prefix)}%`;

/** `LIKE` pattern matching `name` only. */
export const exactly = (name: string): string => likeEscape(name);

/** The database a URL connects to (libpq's default: the user's name). */
export function databaseOf(url: string): string {
  const parsed = new URL(url);
  return decodeURIComponent(parsed.pathname.slice(1)) || decodeURIComponent(parsed.username) || 'postgres';
}

const ignoreCode =
  (code: string) =>
  (err: unknown): void => {
    if ((err as { code?: string }).code !== code) throw err;
  };
