import fs from 'node:fs/promises';
import path from 'node:path';
import { assertSafeName, closeToPublic, databaseOf, exactly, dropOwnedDatabase, ensureOwnedDatabase, randomPassword, startsWith } from './postgres-roles';

/** Where a deployment's own database lives. */
export type DatabaseLocation = { kind: 'postgres'; url: string } | { kind: 'pglite'; dataDir: string };

/** Creates and drops the database each deployment gets (it lives until the deployment is deleted). */
export interface DeploymentDatabases {
  /** Idempotent: a run cut off anywhere is finished by the next (a new password each time: store what it returns). */
  provision(deploymentId: string): Promise<DatabaseLocation>;
  /**
   * A location from before deployments had database roles of their own (it connects as the operator's admin)
   * given its role now; undefined when it already has one. The caller stores the new location and restarts the
   * server with it; until then the old one goes on working.
   */
  isolate(deploymentId: string, location: DatabaseLocation): Promise<DatabaseLocation | undefined>;
  /** Idempotent; `location` when one was stored, else what `provision` may have made before it was recorded. */
  drop(deploymentId: string, location?: DatabaseLocation): Promise<void>;
}

/** The Agent Server variables that point it at its database. */
export function databaseEnv(location: DatabaseLocation): Record<string, string> {
  return location.kind === 'postgres' ? { DATABASE_URL: location.url } : { DATA_DIR: location.dataDir };
}

/**
 * One database per deployment (`<prefix><id>`) on a Postgres server, owned by a LOGIN role of the same name with a
 * random password and no other power (NOSUPERUSER NOCREATEDB NOCREATEROLE); the deployment connects as that role.
 * CONNECT is revoked from PUBLIC on each deployment's database, on every database with the prefix, on the admin
 * URL's own database and on template1, so one deployment's role cannot reach another database on the server.
 * `adminUrl` is a superuser or a role with CREATEDB and CREATEROLE (see the control-plane README).
 */
export class PostgresDeploymentDatabases implements DeploymentDatabases {
  private closed?: Promise<void>;

  constructor(
    private readonly adminUrl: string,
    private readonly prefix = 'deployment_',
    private readonly warn: (message: string) => void = () => undefined,
  ) {}

  async provision(deploymentId: string): Promise<DatabaseLocation> {
    const name = assertSafeName(this.nameOf(deploymentId));
    await this.closeServer();
    return { kind: 'postgres', url: await ensureOwnedDatabase(this.adminUrl, name, randomPassword()) };
  }

  async isolate(deploymentId: string, location: DatabaseLocation): Promise<DatabaseLocation | undefined> {
    if (location.kind !== 'postgres') return undefined;
    const url = new URL(location.url);
    const name = assertSafeName(url.pathname.slice(1));
    if (decodeURIComponent(url.username) === name) return undefined;
    await this.closeServer();
    return { kind: 'postgres', url: await ensureOwnedDatabase(this.adminUrl, name, randomPassword()) };
  }

  async drop(deploymentId: string, location?: DatabaseLocation): Promise<void> {
    if (location && location.kind !== 'postgres') return;
    // The role has the database's name (never the URL's user: a location from before roles names the admin).
    const name = location ? new URL(location.url).pathname.slice(1) : this.nameOf(deploymentId);
    await dropOwnedDatabase(this.adminUrl, assertSafeName(name));
  }

  private nameOf(deploymentId: string): string {
    return `${this.prefix}${deploymentId.replaceAll('-', '')}`;
  }

  /** Once per process (again after a failure): no PUBLIC CONNECT on the deployments' databases, the admin's, template1. */
  private closeServer(): Promise<void> {
    this.closed ??= (async () => {
      const refused = await closeToPublic(this.adminUrl, [startsWith(this.prefix), exactly(databaseOf(this.adminUrl)), 'template1']);
      if (refused.length > 0) this.warn(`CONNECT is still granted to PUBLIC on ${refused.join(', ')} (not this admin's to change): revoke it as their owner`);
    })().catch((err: unknown) => {
      this.closed = undefined;
      throw err;
    });
    return this.closed;
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

  async isolate(): Promise<undefined> {
    return undefined;
  }

  async drop(deploymentId: string, location?: DatabaseLocation): Promise<void> {
    const dataDir = location?.kind === 'pglite' ? location.dataDir : location ? undefined : path.join(this.root, deploymentId);
    if (dataDir) await fs.rm(dataDir, { recursive: true, force: true });
  }
}
