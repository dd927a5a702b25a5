import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import { findMigrationsDir, migrate, openDatabase } from '@platform/prisma';
// eslint-disable-next-line @nx/enforce-module-boundaries -- test-only helpers, in a spec
import { describeWithService } from '@platform/testing';
import { PostgresDeploymentDatabases, type DatabaseLocation } from './deployment-databases';
import { dropOwnedDatabase, ensureOwnedDatabase, roleUrl } from './postgres-roles';

const ADMIN = process.env.DATABASE_URL as string;
const AGENT_SERVER_MIGRATIONS = findMigrationsDir('agent-server', __dirname);

const urlOf = (location: DatabaseLocation) => (location.kind === 'postgres' ? location.url : '');
const inDatabase = (url: string, name: string) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();

async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The error Postgres answers (its SQLSTATE and message); fails the test when `work` succeeds. */
async function refusal(work: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await work();
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
  throw new Error('expected Postgres to refuse');
}

const admin = <T>(sql: string, params: unknown[] = []) => withClient(ADMIN, (c) => c.query(sql, params)).then((r) => r.rows as T[]);
const roleExists = async (name: string) => (await admin('SELECT 1 FROM pg_roles WHERE rolname = $1', [name])).length === 1;
const databaseExists = async (name: string) => (await admin('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length === 1;

/** Applies the Agent Server's migrations as whoever `url` names; the names applied. */
async function migrateAgentServer(url: string): Promise<string[]> {
  const db = await openDatabase({ url, dataDir: 'memory://' });
  try {
    return await migrate(db, AGENT_SERVER_MIGRATIONS);
  } finally {
    await db.close();
  }
}

describeWithService('DATABASE_URL', 'Postgres (deployment databases and roles)')('PostgresDeploymentDatabases: a role per deployment (real Postgres)', () => {
  const prefix = `ddb${randomBytes(3).toString('hex')}_`;
  const databases = new PostgresDeploymentDatabases(ADMIN, prefix);
  const name = (id: string) => `${prefix}${id.replaceAll('-', '')}`;
  const a = randomUUID();
  const b = randomUUID();
  let locationA: DatabaseLocation;
  let locationB: DatabaseLocation;
  // A service's database as `npm start` makes it on a shared server (tools/dev/postgres-databases.ts).
  const service = `${prefix}svc_tracing`;

  beforeAll(async () => {
    locationA = await databases.provision(a);
    locationB = await databases.provision(b);
    await ensureOwnedDatabase(ADMIN, service, 'service-password');
  });

  afterAll(async () => {
    const left = await admin<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
    for (const { datname } of left) await admin(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    const roles = await admin<{ rolname: string }>('SELECT rolname FROM pg_roles WHERE rolname LIKE $1', [`${prefix}%`]);
    for (const { rolname } of roles) await admin(`DROP ROLE IF EXISTS "${rolname}"`);
  });

  it('connects each deployment as a role of its own, owner of its database and schema, with no other power', async () => {
    const url = new URL(urlOf(locationA));
    expect(decodeURIComponent(url.username)).toBe(name(a));
    expect(url.password.length).toBeGreaterThanOrEqual(24);
    expect(url.pathname).toBe(`/${name(a)}`);
    expect(urlOf(locationB)).not.toContain(url.password);

    const [me] = await withClient(urlOf(locationA), (c) =>
      c.query(
        `SELECT current_user AS "user", current_database() AS db, r.rolsuper, r.rolcreatedb, r.rolcreaterole, r.rolreplication, r.rolbypassrls,
                pg_get_userbyid(d.datdba) AS db_owner, has_schema_privilege('public', 'CREATE') AS can_create
           FROM pg_roles r, pg_database d WHERE r.rolname = current_user AND d.datname = current_database()`,
      ),
    ).then((r) => r.rows);
    expect(me).toEqual({
      user: name(a),
      db: name(a),
      rolsuper: false,
      rolcreatedb: false,
      rolcreaterole: false,
      rolreplication: false,
      rolbypassrls: false,
      db_owner: name(a),
      can_create: true,
    });
  });

  it("cannot connect to another deployment's database, the services' databases, postgres or template1", async () => {
    for (const other of [name(b), service, new URL(ADMIN).pathname.slice(1) || 'postgres', 'template1']) {
      const refused = await refusal(() => withClient(inDatabase(urlOf(locationA), other), async () => undefined));
      expect({ other, code: refused.code }).toEqual({ other, code: '42501' });
      expect(refused.message).toBe(`permission denied for database "${other}"`);
    }
    // And the other deployment cannot reach this one's.
    const refused = await refusal(() => withClient(inDatabase(urlOf(locationB), name(a)), async () => undefined));
    expect(refused.message).toBe(`permission denied for database "${name(a)}"`);
  });

  it('cannot create roles or databases, read password hashes, run programs or read server files', async () => {
    await withClient(urlOf(locationA), async (c) => {
      for (const sql of [
        `CREATE ROLE ${prefix}intruder LOGIN`,
        `CREATE DATABASE ${prefix}intruder`,
        `ALTER ROLE "${name(a)}" SUPERUSER`,
        `GRANT pg_read_server_files TO "${name(a)}"`,
        'SELECT rolpassword FROM pg_authid',
        'SELECT passwd FROM pg_shadow',
        "COPY (SELECT 1) TO PROGRAM 'true'",
        "SELECT pg_read_file('/etc/passwd')",
        `DROP DATABASE "${name(b)}"`,
      ]) {
        const refused = await refusal(() => c.query(sql));
        expect({ sql, code: refused.code }).toEqual({ sql, code: '42501' });
      }
    });
    expect(await roleExists(`${prefix}intruder`)).toBe(false);
  });

  it("runs the Agent Server's migrations as the role, then LISTEN/NOTIFY (also from its trigger), advisory locks, temporary tables", async () => {
    const applied = await migrateAgentServer(urlOf(locationA));
    expect(applied.length).toBeGreaterThan(0);
    // Every object the migrations made belongs to the role (so later migrations may alter them).
    const foreign = await withClient(urlOf(locationA), (c) =>
      c.query(
        `SELECT relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = 'public' AND pg_get_userbyid(c.relowner) <> current_user`,
      ),
    );
    expect(foreign.rows).toEqual([]);
    expect(await migrateAgentServer(urlOf(locationA))).toEqual([]);

    const db = await openDatabase({ url: urlOf(locationA), dataDir: 'memory://' });
    try {
      const heard: string[] = [];
      const unlisten = await db.listen('agent_assistants', { onNotify: (payload) => heard.push(payload) });
      await db.notify('agent_assistants', 'direct');
      const [assistant] = await db.query<{ assistant_id: string }>(
        `INSERT INTO assistants (assistant_id, graph_id, config, context, metadata, name, description)
         VALUES (gen_random_uuid(), 'agent', '{}', '{}', '{}', 'a', NULL) RETURNING assistant_id::text`,
      );
      const deadline = Date.now() + 10_000;
      while (heard.length < 2 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(heard).toEqual(['direct', assistant.assistant_id]);
      await unlisten();
      const locked = await db.withSession(async (s) => {
        const [got] = await s.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(4242) AS ok');
        await s.query('SELECT pg_advisory_unlock(4242)');
        return got.ok;
      });
      expect(locked).toBe(true);
      await db.withSession((s) => s.exec('CREATE TEMPORARY TABLE scratch (x int); DROP TABLE scratch'));
    } finally {
      await db.close();
    }
  });

  it('gives a database made before roles (the admin its user, its tables the superuser) a role, which then migrates and alters them', async () => {
    const legacy = randomUUID();
    const legacyName = name(legacy);
    // As the control plane made them before: a database on the admin's URL, migrated as the admin.
    await admin(`CREATE DATABASE "${legacyName}"`);
    const old: DatabaseLocation = { kind: 'postgres', url: inDatabase(ADMIN, legacyName) };
    await migrateAgentServer(urlOf(old));

    const isolated = (await databases.isolate(legacy, old)) as DatabaseLocation;
    expect(decodeURIComponent(new URL(urlOf(isolated)).username)).toBe(legacyName);
    expect(await databases.isolate(legacy, isolated)).toBeUndefined();
    await withClient(urlOf(isolated), async (c) => {
      const owners = await c.query<{ owner: string }>(
        `SELECT DISTINCT pg_get_userbyid(c.relowner) AS owner FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'public'
         UNION SELECT pg_get_userbyid(proowner) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
         UNION SELECT pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname = 'public'`,
      );
      expect(owners.rows).toEqual([{ owner: legacyName }]);
      // What a later migration does: alter a table the superuser made, replace its trigger function.
      await c.query('ALTER TABLE assistants ADD COLUMN later_migration int');
      await c.query('ALTER TABLE assistants DROP COLUMN later_migration');
      await c.query(`CREATE OR REPLACE FUNCTION notify_assistant_change() RETURNS trigger AS $$ BEGIN RETURN NULL; END $$ LANGUAGE plpgsql`);
    });
    expect(await migrateAgentServer(urlOf(isolated))).toEqual([]);
    const refused = await refusal(() => withClient(inDatabase(urlOf(isolated), name(a)), async () => undefined));
    expect(refused.message).toBe(`permission denied for database "${name(a)}"`);
    await databases.drop(legacy, isolated);
    expect([await databaseExists(legacyName), await roleExists(legacyName)]).toEqual([false, false]);
  });

  it('drops the database and then the role; a run cut off between the two (or before anything was recorded) is finished by the next', async () => {
    const id = randomUUID();
    const location = await databases.provision(id);
    await databases.drop(id, location);
    expect([await databaseExists(name(id)), await roleExists(name(id))]).toEqual([false, false]);
    await databases.drop(id, location);

    // Cut off after DROP DATABASE: the role is left, and the next drop removes it.
    const again = await databases.provision(id);
    await admin(`DROP DATABASE "${name(id)}" WITH (FORCE)`);
    expect(await roleExists(name(id))).toBe(true);
    await databases.drop(id, again);
    expect(await roleExists(name(id))).toBe(false);

    // Provisioned but never recorded (the control plane stopped before storing the location): dropped by id.
    await databases.provision(id);
    await databases.drop(id);
    expect([await databaseExists(name(id)), await roleExists(name(id))]).toEqual([false, false]);
  });

  it('finishes a provisioning cut off after the role was made (with a password never recorded) or after the database', async () => {
    const id = randomUUID();
    await admin(`CREATE ROLE "${name(id)}" LOGIN PASSWORD 'lost-with-the-crash'`);
    const location = await databases.provision(id);
    expect(await withClient(urlOf(location), (c) => c.query('SELECT current_user AS u')).then((r) => r.rows)).toEqual([{ u: name(id) }]);
    // Again (the location was not recorded either): a new password, the old one no longer works where passwords are checked.
    const second = await databases.provision(id);
    expect(new URL(urlOf(second)).password).not.toBe(new URL(urlOf(location)).password);
    expect(await migrateAgentServer(urlOf(second))).not.toEqual([]);
    await databases.drop(id, second);
    expect([await databaseExists(name(id)), await roleExists(name(id))]).toEqual([false, false]);
  });

  it("dropping a service's database with its role, by name (what the dev launcher's role is)", async () => {
    const url = roleUrl(ADMIN, service, 'service-password');
    expect(await withClient(url, (c) => c.query('SELECT current_user AS u')).then((r) => r.rows)).toEqual([{ u: service }]);
    await dropOwnedDatabase(ADMIN, service);
    expect([await databaseExists(service), await roleExists(service)]).toEqual([false, false]);
  });

  it('works with an admin that is no superuser (CREATEDB CREATEROLE), warning about the databases it may not close', async () => {
    const operator = `${prefix}operator`;
    const serverDb = new URL(ADMIN).pathname.slice(1) || 'postgres';
    await admin(`CREATE ROLE "${operator}" LOGIN CREATEDB CREATEROLE`);
    await admin(`GRANT CONNECT ON DATABASE "${serverDb}" TO "${operator}"`);
    const warnings: string[] = [];
    const asOperator = new PostgresDeploymentDatabases(Object.assign(new URL(ADMIN), { username: operator }).toString(), `${prefix}op_`, (m) => warnings.push(m));
    const id = randomUUID();
    try {
      const location = await asOperator.provision(id);
      const own = `${prefix}op_${id.replaceAll('-', '')}`;
      expect(decodeURIComponent(new URL(urlOf(location)).username)).toBe(own);
      expect(await migrateAgentServer(urlOf(location))).not.toEqual([]);
      const refused = await refusal(() => withClient(inDatabase(urlOf(location), name(a)), async () => undefined));
      expect(refused.message).toBe(`permission denied for database "${name(a)}"`);
      // The server's database and template1 were closed by the superuser above; a database of the prefix that
      // another role owns and left open is named in a warning, since this admin may not close it.
      expect(warnings).toEqual([]);
      await admin(`CREATE DATABASE "${prefix}op_stray"`);
      await new PostgresDeploymentDatabases(Object.assign(new URL(ADMIN), { username: operator }).toString(), `${prefix}op_`, (m) => warnings.push(m)).provision(id);
      expect(warnings).toEqual([`CONNECT is still granted to PUBLIC on ${prefix}op_stray (not this admin's to change): revoke it as their owner`]);
      await asOperator.drop(id, location);
      expect([await databaseExists(own), await roleExists(own)]).toEqual([false, false]);
    } finally {
      await admin(`REVOKE CONNECT ON DATABASE "${serverDb}" FROM "${operator}"`);
    }
  });
});
