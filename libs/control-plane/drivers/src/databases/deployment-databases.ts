import fs from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';

/** Where a deployment's own database lives. */
export type DatabaseLocation = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

/** Creates and drops the database each deployment gets (it lives until the deployment is deleted). */
export interface DeploymentDatabases {
  provision(deploymentId: string): Promise<DatabaseLocation>;
  drop(location: DatabaseLocation): Promise<void>;
}

/** The Agent Server variables that point it at its database. */
export function databaseEnv(location: DatabaseLocation): Record<string, string> {
  return location.kind === 'postgres' ? { DATABASE_URL: location.url } : { DATA_DIR: location.dataDir };
}

async function onServer(adminUrl: string, sql: string): Promise<void> {
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

/** One database per deployment (`<prefix><id>`) on a Postgres server the control plane may CREATE DATABASE on. */
export class PostgresDeploymentDatabases implements DeploymentDatabases {
  constructor(
    private readonly adminUrl: string,
    private readonly prefix = 'deployment_',
  ) {}

  async provision(deploymentId: string): Promise<DatabaseLocation> {
    const name = `${this.prefix}${deploymentId.replaceAll('-', '')}`;
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name ${name}`);
    try {
      await onServer(this.adminUrl, `CREATE DATABASE "${name}"`);
    } catch (err) {
      // Provisioning again after an interruption: the database is already there.
      if ((err as { code?: string }).code !== '42P04') throw err;
    }
    const url = new URL(this.adminUrl);
    url.pathname = `/${name}`;
    return { kind: 'postgres', url: url.toString() };
  }

  async drop(location: DatabaseLocation): Promise<void> {
    if (location.kind !== 'postgres') return;
    const name = new URL(location.url).pathname.slice(1);
    if (!/^[a-z0-9_]+$/.test(name)) throw new Error(`unsafe database name ${name}`);
    await onServer(this.adminUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

/** Embedded mode: each deployment's Agent Server keeps PGlite under `<root>/<id>`. */
export class PgliteDeploymentDatabases implements DeploymentDatabases {
  constructor(private readonly root: string) {}

  async provision(deploymentId: string): Promise<DatabaseLocation> {
    const dataDir = path.join(this.root, deploymentId);
    await fs.mkdir(dataDir, { recursive: true });
    return { kind: 'pglite', dataDir };
  }

  async drop(location: DatabaseLocation): Promise<void> {
    if (location.kind === 'pglite') await fs.rm(location.dataDir, { recursive: true, force: true });
  }
}
