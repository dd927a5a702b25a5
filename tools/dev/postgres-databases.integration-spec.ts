import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { findMigrationsDir, migrate, openDatabase } from '@platform/prisma';
import { describeWithService } from '@platform/testing';
import { databaseUrls } from './launch-env';
import { DATABASE_SERVICES } from './platform';
import { ensurePostgresDatabase } from './postgres-databases';

const ADMIN = process.env.DATABASE_URL as string;

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}
const admin = <T>(sql: string, params: unknown[] = []) => withClient(ADMIN, (c) => c.query(sql, params)).then((r) => r.rows as T[]);
const inDatabase = (url: string, name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();

async function migrateAs(url: string, service: string): Promise<string[]> {
  const db = await openDatabase({ url, dataDir: 'memory://' });
  try {
    return await migrate(db, findMigrationsDir(service, __dirname));
  } finally {
    await db.close();
  }
}

// `npm start` with one DATABASE_URL (a superuser): every service gets a database and a role of its own.
describeWithService('DATABASE_URL', 'Postgres (the launcher on one DATABASE_URL)')("the launcher's service databases: a role per service", () => {
  const prefix = `lnch${randomBytes(3).toString('hex')}_`;
  const env = { DATABASE_URL: ADMIN, DATABASE_PREFIX: prefix };
  const dbName = (service: string) => `${prefix}${service.replaceAll('-', '_')}`;

  afterAll(async () => {
    const left = await admin<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    for (const { datname } of left) await admin(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    const roles = await admin<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE rolname LIKE $1', [`${prefix}%`]);
    for (const { rolname } of roles) await admin(`DROP ROLE IF EXISTS "${rolname}"`);
  });

  it("connects each service as its database's owner, which migrates it and reaches no other database; a second launch agrees on every URL", async () => {
    const urls = await databaseUrls(env);
    for (const service of DATABASE_SERVICES) {
      const url = new URL(urls[service] as string);
      expect([url.username, url.pathname]).toEqual([dbName(service), `/${dbName(service)}`]);
      const [me] = await withClient(url.toString(), (c) =>
        c.query(`SELECT current_user AS u, rolsuper, rolcreatedb, rolcreaterole FROM pg_roles WHERE rolname = current_user`),
      ).then((r) => r.rows);
      expect(me).toEqual({ u: dbName(service), rolsuper: false, rolcreatedb: false, rolcreaterole: false });
      expect((await migrateAs(url.toString(), service)).length).toBeGreaterThan(0);
    }
    for (const other of [dbName('gateway'), new URL(ADMIN).pathname.slice(1) || 'postgres', 'template1']) {
      const refused = await withClient(inDatabase(urls.tracing as string, other), async () => undefined).then(
        () => undefined,
        (err: { code?: string; message: string }) => [err.code, err.message],
      );
      expect(refused).toEqual(['42501', `permission denied for database "${other}"`]);
    }
    // Concurrent and later launchers derive the same password: the first launcher's services keep connecting.
    expect(await databaseUrls(env)).toEqual(urls);
  });

  it('hands a database made and migrated by the superuser before roles to its new role', async () => {
    const name = `${prefix}legacy_gateway`;
    await admin(`CREATE DATABASE "${name}"`);
    await migrateAs(inDatabase(ADMIN, name), 'gateway');
    const url = await ensurePostgresDatabase(ADMIN, name);
    expect(new URL(url).username).toBe(name);
    expect(await migrateAs(url, 'gateway')).toEqual([]);
    const owners = await withClient(url, (c) =>
      c.query(`SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'`),
    );
    expect(owners.rows).toEqual([{ owner: name }]);
  });

  it('keeps the old way (the database as the URL\'s own user) when that user may not make roles', async () => {
    const user = `${prefix}createdb_only`;
    const serverDb = new URL(ADMIN).pathname.slice(1) || 'postgres';
    await admin(`CREATE ROLE "${user}" LOGIN CREATEDB`);
    // The operator lets it connect to the server's database (closed to PUBLIC by an earlier launch or control plane).
    await admin(`GRANT CONNECT ON DATABASE "${serverDb}" TO "${user}"`);
    const url = await ensurePostgresDatabase(Object.assign(new URL(ADMIN), { username: user }).toString(), `${prefix}plain`);
    expect([new URL(url).username, new URL(url).pathname]).toEqual([user, `/${prefix}plain`]);
    const [row] = await admin<{ owner: string }>('SELECT pg_get_userbyid(datdba) AS owner FROM pg_database WHERE datname = $1', [`${prefix}plain`]);
    expect(row).toEqual({ owner: user });
    await admin(`DROP DATABASE "${prefix}plain"`);
    await admin(`REVOKE CONNECT ON DATABASE "${serverDb}" FROM "${user}"`);
  });
});
