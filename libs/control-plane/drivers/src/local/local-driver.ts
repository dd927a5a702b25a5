import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '@platform/logging';
import { assertTenantEnv, DeployError, type DeploySpec, type DeploymentDriver, type UpstreamListener } from '../driver';
import { probeOk, waitHealthy } from './health';
import type { InstancesRepository } from '@platform/control-plane-data-access';
import { freePort, PARENT_PID_VARIABLE } from '@platform/http-server';
import { isAlive, isOurInstance, logTail, portIsFree, startedWith, stopProcessGroup } from './process-tools';
import { runningAsRoot, TenantUsers, type TenantUser } from './tenant-users';

export interface LocalDriverOptions {
  /** The Agent Server command, e.g. `["node_modules/.bin/tsx", "apps/agent-server/src/main.ts"]`. */
  command: string[];
  /** Working directory of the command (the platform's root, whose node_modules the servers use). */
  cwd: string;
  /** Interface the instances listen on. */
  host: string;
  logDir: string;
  instances: InstancesRepository;
  logger: Logger;
  onUpstreamChange: UpstreamListener;
  /** How long a new instance has to answer `/ok`. */
  healthTimeoutMs: number;
  /** How long a replaced instance keeps serving after the swap (covers the gateway's routing cache). */
  drainMs: number;
  stopGraceMs?: number;
  /** How often serving instances are checked. */
  superviseIntervalMs?: number;
  /** Stop the instances when the control plane shuts down (default true; the next start brings them back). */
  stopOnClose?: boolean;
  /**
   * Each Agent Server stops itself when this process is gone, however it died (its watchdog on PLATFORM_PARENT_PID):
   * for a control plane inside a launcher (`npm start`, `agent-platform up`), so that nothing outlives it. Off (the
   * default), an Agent Server outlives a control plane that crashed, and the next one adopts it.
   */
  exitWithParent?: boolean;
  /**
   * The control plane's work directory (builds, embedded databases, homes). Given, and running as root, each
   * deployment runs as an unprivileged user of its own (see tenant-users.ts); as any other user, or without it,
   * deployments run as this process's user.
   */
  workDir?: string;
}

interface Running {
  id: string;
  spec: DeploySpec;
  port: number;
  url: string;
  pid: number;
  /** Absent for an instance adopted from a previous control plane (not our child). */
  child?: ChildProcess;
  exit?: { code: number | null };
  state: 'starting' | 'serving' | 'draining';
  stopping: boolean;
  restarting: boolean;
  failures: number;
  drainTimer?: NodeJS.Timeout;
  logFile: string;
  /** The unprivileged user it runs as (a root control plane with a work directory). */
  user?: TenantUser;
}

const NEVER = new AbortController().signal;
const BASE_ENV = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR'];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const START_LOG_BYTES = 64 * 1024;

/**
 * Runs each deployment's Agent Server as a child process of the control plane on this machine: a free port, its
 * own database, the deployment's environment. Swaps revisions by starting the new one, waiting for `/ok`, then
 * draining the old; restarts an instance that crashes or stops answering.
 */
export class LocalDriver implements DeploymentDriver {
  readonly kind = 'local' as const;
  private readonly running = new Map<string, Running>();
  private readonly advertised: string;
  private supervisor?: NodeJS.Timeout;
  private closed = false;
  private readonly users?: TenantUsers;

  constructor(private readonly options: LocalDriverOptions) {
    this.advertised = options.host === '0.0.0.0' || options.host === '::' ? '127.0.0.1' : options.host;
    if (options.workDir && runningAsRoot()) {
      this.users = new TenantUsers(options.workDir);
      this.users.prepareWorkDir();
    }
  }

  /** Whether deployments run as users of their own (root control plane with a work directory). */
  get isolatesUsers(): boolean {
    return this.users !== undefined;
  }

  async deploy(spec: DeploySpec, signal: AbortSignal): Promise<{ upstreamUrl: string }> {
    if (!spec.configPath) {
      throw new DeployError('The local driver runs Agent Servers from a built source checkout; external_docker images need the kubernetes driver');
    }
    assertTenantEnv(spec.env);
    this.supervise();
    const older = this.instancesOf(spec.deploymentId);
    const serving = older.find((r) => r.state === 'serving');
    let port: number | undefined;
    if (!spec.sharedDatabase) {
      // An embedded database admits one process: stop the old instance first, and reuse its port so the URL holds.
      for (const r of older) await this.stop(r);
      port = serving?.port;
    }
    let fresh: Running;
    try {
      fresh = await this.start(spec, signal, port);
    } catch (err) {
      if (!spec.sharedDatabase && serving && !this.closed) await this.bringBack(serving.spec, serving.port);
      throw err;
    }
    for (const r of older) if (this.running.get(r.id) === r) this.drain(r);
    return { upstreamUrl: fresh.url };
  }

  async destroy(deploymentId: string): Promise<void> {
    await Promise.all(this.instancesOf(deploymentId).map((r) => this.stop(r)));
    for (const record of await this.options.instances.list(this.kind)) {
      if (record.deploymentId !== deploymentId) continue;
      if (record.pid && isOurInstance(record.pid, record.id)) await stopProcessGroup(record.pid, this.graceMs);
      await this.options.instances.remove(record.id);
    }
    fs.rmSync(path.join(this.options.logDir, deploymentId), { recursive: true, force: true });
    this.users?.remove(deploymentId);
  }

  async resume(active: DeploySpec[]): Promise<Map<string, string>> {
    this.closed = false;
    this.supervise();
    const urls = new Map<string, string>();
    const wanted = new Map(active.map((s) => [s.deploymentId, s]));
    for (const r of this.running.values()) {
      if (wanted.get(r.spec.deploymentId)?.revisionId !== r.spec.revisionId && r.state === 'serving') await this.stop(r);
      else if (r.state === 'serving') urls.set(r.spec.deploymentId, r.url);
    }
    for (const record of await this.options.instances.list(this.kind)) {
      if (this.running.has(record.id)) continue;
      const spec = wanted.get(record.deploymentId);
      const ours = record.pid !== null && isOurInstance(record.pid, record.id);
      // Its keys must be the ones it would get now: after a rotation of the platform secret it starts again.
      const keys = spec ? ['DEPLOYMENT_KEY', 'DEPLOYMENT_KEYS_PREVIOUS'].filter((k) => spec.env[k] !== undefined).map((k) => `${k}=${spec.env[k]}`) : [];
      const adoptable = spec?.revisionId === record.revisionId && record.state === 'serving' && !urls.has(record.deploymentId) && startedWith(record.pid as number, keys);
      if (adoptable && ours && record.url && (await probeOk(record.url))) {
        const port = Number(new URL(record.url).port);
        this.running.set(record.id, {
          id: record.id,
          spec,
          port,
          url: record.url,
          pid: record.pid as number,
          state: 'serving',
          stopping: false,
          restarting: false,
          failures: 0,
          logFile: this.logFile(spec.deploymentId, record.id),
        });
        urls.set(record.deploymentId, record.url);
        this.options.logger.info({ deployment_id: record.deploymentId, pid: record.pid, url: record.url }, 'adopted running agent server');
        continue;
      }
      if (ours) await stopProcessGroup(record.pid as number, this.graceMs);
      await this.options.instances.remove(record.id);
    }
    for (const spec of active) {
      if (urls.has(spec.deploymentId)) continue;
      try {
        const r = await this.start(spec, NEVER);
        urls.set(spec.deploymentId, r.url);
      } catch (err) {
        this.options.logger.error({ err, deployment_id: spec.deploymentId }, 'could not restart agent server');
      }
    }
    return urls;
  }

  async release(): Promise<void> {
    this.stopSupervising();
    for (const r of this.running.values()) {
      clearTimeout(r.drainTimer);
      r.child?.removeAllListeners('exit');
    }
    this.running.clear();
  }

  async close(): Promise<void> {
    this.closed = true;
    this.stopSupervising();
    if (this.options.stopOnClose ?? true) await Promise.all([...this.running.values()].map((r) => this.stop(r)));
    else await this.release();
  }

  private get graceMs(): number {
    return this.options.stopGraceMs ?? 10_000;
  }

  private instancesOf(deploymentId: string): Running[] {
    return [...this.running.values()].filter((r) => r.spec.deploymentId === deploymentId);
  }

  private logFile(deploymentId: string, instanceId: string): string {
    return path.join(this.options.logDir, deploymentId, `${instanceId}.log`);
  }

  private async start(spec: DeploySpec, signal: AbortSignal, preferredPort?: number): Promise<Running> {
    const id = randomUUID();
    const port = preferredPort !== undefined && (await portIsFree(this.options.host, preferredPort)) ? preferredPort : await freePort(this.options.host);
    const url = `http://${this.advertised}:${port}`;
    const r: Running = { id, spec, port, url, pid: 0, state: 'starting', stopping: false, restarting: false, failures: 0, logFile: this.logFile(spec.deploymentId, id) };
    await this.options.instances.create({ id, deploymentId: spec.deploymentId, revisionId: spec.revisionId, driver: this.kind, state: 'starting', url, pid: null });
    this.running.set(id, r);
    try {
      this.spawn(r);
      await this.options.instances.update(id, { pid: r.pid });
      await this.waitUntilHealthy(r, signal);
    } catch (err) {
      this.reportStartLog(r);
      await this.stop(r);
      throw err;
    }
    this.reportStartLog(r);
    r.state = 'serving';
    await this.options.instances.update(id, { state: 'serving' });
    this.options.logger.info({ deployment_id: spec.deploymentId, revision_id: spec.revisionId, pid: r.pid, url }, 'agent server serving');
    return r;
  }

  /** What the instance printed while starting, for the revision's deploy log (its last 64 KiB). */
  private reportStartLog(r: Running): void {
    if (!r.spec.log) return;
    try {
      const text = fs.readFileSync(r.logFile, 'utf8');
      if (text) r.spec.log(text.length > START_LOG_BYTES ? text.slice(-START_LOG_BYTES) : text);
    } catch {
      // No output yet.
    }
  }

  /** The deployment's own user, its build readable and its embedded database writable by it. */
  private userOf(spec: DeploySpec): TenantUser | undefined {
    if (!this.users) return undefined;
    const user = this.users.userFor(spec.deploymentId);
    this.users.grant(user, { buildDir: spec.checkoutDir, databaseDir: spec.env.DATABASE_URL ? undefined : spec.env.DATA_DIR });
    return user;
  }

  private spawn(r: Running): void {
    r.user ??= this.userOf(r.spec);
    fs.mkdirSync(path.dirname(r.logFile), { recursive: true, mode: 0o700 });
    // Opened here (root's, 0600) and handed over as stdout/stderr: the deployment writes its log, never reads others'.
    const fd = fs.openSync(r.logFile, 'a', 0o600);
    const [command, ...args] = this.options.command;
    const home = r.user ? { HOME: r.user.home, TMPDIR: path.join(r.user.home, 'tmp'), GRAPH_SCHEMA_CACHE_DIR: path.join(r.user.home, 'graph-schemas') } : {};
    const env: NodeJS.ProcessEnv = {
      ...Object.fromEntries(BASE_ENV.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]])),
      ...home,
      ...r.spec.env,
      HOST: this.options.host,
      PORT: String(r.port),
      LANGGRAPH_CONFIG_PATH: r.spec.configPath,
      PLATFORM_INSTANCE_ID: r.id,
      // Its watchdog (runService): with exitWithParent it stops itself when this process is gone, however it died;
      // otherwise it outlives a crashed control plane and the next one adopts it.
      ...(this.options.exitWithParent ? { [PARENT_PID_VARIABLE]: String(process.pid) } : {}),
    };
    let child: ChildProcess;
    try {
      // Its own process group, so a stop reaches the children it starts (tsx runs node underneath).
      const user = r.user ? { uid: r.user.uid, gid: r.user.gid } : {};
      child = spawn(command, args, { cwd: this.options.cwd, env, detached: true, stdio: ['ignore', fd, fd], ...user });
    } finally {
      fs.closeSync(fd);
    }
    child.unref();
    r.child = child;
    r.exit = undefined;
    r.pid = child.pid ?? 0;
    child.on('error', (err) => {
      fs.appendFileSync(r.logFile, `\n[control-plane] could not start ${command}: ${err.message}\n`);
      r.exit = { code: null };
    });
    child.on('exit', (code, sig) => {
      r.exit = { code: code ?? (sig ? 128 : null) };
      if (r.state === 'serving' && !r.stopping && !this.closed) {
        this.options.logger.warn({ deployment_id: r.spec.deploymentId, pid: r.pid, code, signal: sig }, 'agent server exited; restarting');
        void this.restart(r);
      }
    });
  }

  private async waitUntilHealthy(r: Running, signal: AbortSignal): Promise<void> {
    const outcome = await waitHealthy(r.url, { timeoutMs: this.options.healthTimeoutMs, signal, exited: () => r.exit });
    if (outcome.healthy) return;
    const log = logTail(r.logFile);
    const detail = log ? `:\n${log}` : '';
    if (outcome.reason === 'aborted') throw new DeployError('Deploy aborted');
    if (outcome.reason === 'exited') throw new DeployError(`Agent Server exited with code ${outcome.exitCode} before it became healthy${detail}`);
    throw new DeployError(`Agent Server did not answer GET /ok within ${Math.round(this.options.healthTimeoutMs / 1000)} s${detail}`);
  }

  /** A crashed (or unresponsive) serving instance comes back on its port when it can, with backoff. */
  private async restart(r: Running): Promise<void> {
    if (r.restarting) return;
    r.restarting = true;
    for (let attempt = 0; !this.closed && !r.stopping && this.running.get(r.id) === r; attempt++) {
      await sleep(Math.min(30_000, 500 * 2 ** attempt));
      if (this.closed || r.stopping || this.running.get(r.id) !== r) break;
      try {
        if (r.pid && isAlive(r.pid)) await stopProcessGroup(r.pid, 1_000);
        if (!(await portIsFree(this.options.host, r.port))) {
          r.port = await freePort(this.options.host);
          r.url = `http://${this.advertised}:${r.port}`;
        }
        this.spawn(r);
        await this.options.instances.update(r.id, { pid: r.pid, url: r.url });
        await this.waitUntilHealthy(r, NEVER);
        await this.options.onUpstreamChange(r.spec.deploymentId, r.url);
        r.failures = 0;
        this.options.logger.info({ deployment_id: r.spec.deploymentId, pid: r.pid, url: r.url }, 'agent server restarted');
        break;
      } catch (err) {
        this.options.logger.error({ err, deployment_id: r.spec.deploymentId, attempt }, 'agent server restart failed');
      }
    }
    r.restarting = false;
  }

  private async bringBack(spec: DeploySpec, port: number): Promise<void> {
    try {
      const r = await this.start(spec, NEVER, port);
      await this.options.onUpstreamChange(spec.deploymentId, r.url);
    } catch (err) {
      this.options.logger.error({ err, deployment_id: spec.deploymentId }, 'could not bring the previous revision back');
    }
  }

  private drain(r: Running): void {
    r.state = 'draining';
    void this.options.instances.update(r.id, { state: 'draining' }).catch(() => undefined);
    r.drainTimer = setTimeout(() => void this.stop(r), this.options.drainMs);
    r.drainTimer.unref();
  }

  private async stop(r: Running): Promise<void> {
    r.stopping = true;
    clearTimeout(r.drainTimer);
    if (r.pid && isAlive(r.pid)) await stopProcessGroup(r.pid, this.graceMs);
    if (this.running.get(r.id) === r) this.running.delete(r.id);
    await this.options.instances.remove(r.id).catch(() => undefined);
  }

  private supervise(): void {
    if (this.supervisor) return;
    this.supervisor = setInterval(() => void this.check(), this.options.superviseIntervalMs ?? 2_000);
    this.supervisor.unref();
  }

  private stopSupervising(): void {
    clearInterval(this.supervisor);
    this.supervisor = undefined;
  }

  /** Adopted instances are not our children (no exit event): watch their pid; and restart any that stop answering. */
  private async check(): Promise<void> {
    for (const r of [...this.running.values()]) {
      if (r.state !== 'serving' || r.restarting || r.stopping) continue;
      if (!r.child && !isAlive(r.pid)) {
        this.options.logger.warn({ deployment_id: r.spec.deploymentId, pid: r.pid }, 'adopted agent server is gone; restarting');
        void this.restart(r);
        continue;
      }
      if (await probeOk(r.url, 2_000)) {
        r.failures = 0;
        continue;
      }
      if (++r.failures >= 3) {
        this.options.logger.warn({ deployment_id: r.spec.deploymentId, pid: r.pid }, 'agent server stopped answering /ok; restarting');
        r.failures = 0;
        if (r.child && !r.exit) await stopProcessGroup(r.pid, 1_000);
        else void this.restart(r);
      }
    }
  }
}
