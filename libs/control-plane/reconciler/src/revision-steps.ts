import fs from 'node:fs';
import path from 'node:path';
import { BuildError } from '@platform/control-plane-builder';
import {
  IN_PROGRESS_STATUSES,
  LeaseLostError,
  type DeploymentRecord,
  type ReconcilerRepository,
  type Revision,
  type RevisionLogType,
  type RevisionStatus,
} from '@platform/control-plane-data-access';
import { RevisionLogWriter } from '@platform/control-plane-deployments';
import { DeployError, type DatabaseLocation, type DeploySpec } from '@platform/control-plane-drivers';
import { abortReason } from './abort-reasons';
import { agentServerEnv } from './deployment-env';
import type { ReconcilerDeps } from './reconciler-deps';
import type { Semaphore } from './semaphore';

/** Drops the build copy's folder from the paths in a text: `<checkout>/src/agent.ts` reads `src/agent.ts`. */
export function relativeTo(dir: string | undefined): (text: string) => string {
  if (!dir) return (text) => text;
  const prefix = `${path.resolve(dir)}${path.sep}`;
  return (text) => text.replaceAll(prefix, '');
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
const obj = (v: unknown) => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined);

/**
 * Drives one revision through its statuses: CREATING → QUEUED → AWAITING_BUILD → BUILDING → AWAITING_DEPLOY →
 * DEPLOYING → DEPLOYED (external_docker skips the build). Every move is a compare-and-set, so an interruption or
 * a newer revision in the meantime simply ends the walk. A step found already running (a control plane that died
 * mid-way) is started again, at most `maxAttempts` times, then failed.
 */
export class RevisionSteps {
  constructor(
    private readonly deps: ReconcilerDeps,
    private readonly store: ReconcilerRepository,
    private readonly buildSlots: Semaphore,
  ) {}

  buildDir(deploymentId: string, revisionId?: string): string {
    return path.join(this.deps.options.workDir, 'builds', deploymentId, ...(revisionId ? [revisionId] : []));
  }

  async advance(deployment: DeploymentRecord, start: Revision, signal: AbortSignal): Promise<void> {
    let rev = start;
    const move = async (from: RevisionStatus[], to: RevisionStatus, update: Parameters<ReconcilerRepository['transition']>[3] = {}) => {
      if (!(await this.store.transition(rev, from, to, update))) return false;
      rev = { ...rev, status: to, ...(update.attempts !== undefined ? { attempts: update.attempts } : {}) };
      if (update.artifact) rev.artifact = update.artifact;
      if (update.sourceRevisionConfig) rev.sourceRevisionConfig = update.sourceRevisionConfig;
      this.deps.logger.info({ deployment_id: deployment.id, revision_id: rev.id, status: to, message: update.statusMessage ?? undefined }, 'revision status');
      return true;
    };
    const resumeStep = async (status: 'BUILDING' | 'DEPLOYING') => {
      const attempts = rev.attempts + 1;
      if (attempts > this.deps.options.maxAttempts) {
        const failed = status === 'BUILDING' ? 'BUILD_FAILED' : 'DEPLOY_FAILED';
        await move([status], failed, { statusMessage: `${status === 'BUILDING' ? 'Build' : 'Deploy'} was interrupted ${rev.attempts} times (control-plane restarts); giving up` });
        return false;
      }
      return move([status], status, { attempts, statusMessage: `Resumed after an interruption (attempt ${attempts})` });
    };

    while (!signal.aborted && (IN_PROGRESS_STATUSES as readonly string[]).includes(rev.status)) {
      switch (rev.status) {
        case 'CREATING': {
          const problem = await this.checkCreatable(deployment, rev);
          if (problem) return void (await move(['CREATING'], 'CREATE_FAILED', { statusMessage: problem }));
          if (!(await move(['CREATING'], 'QUEUED', { statusMessage: null }))) return;
          break;
        }
        case 'QUEUED':
          if (rev.source !== 'github') {
            const imageUri = str(rev.sourceRevisionConfig.image_uri);
            if (!(await move(['QUEUED'], 'AWAITING_DEPLOY', { artifact: { imageUri } }))) return;
            break;
          }
          // QUEUED means waiting for a build slot; the slot is held through the build, not the deploy.
          await this.withBuildSlot(signal, async () => {
            if (!(await move(['QUEUED'], 'AWAITING_BUILD'))) return;
            if (!(await move(['AWAITING_BUILD'], 'BUILDING', { attempts: 1 }))) return;
            rev = await this.build(deployment, rev, signal, move);
          });
          if (rev.status === 'QUEUED') return;
          break;
        case 'AWAITING_BUILD':
          await this.withBuildSlot(signal, async () => {
            if (!(await move(['AWAITING_BUILD'], 'BUILDING', { attempts: 1 }))) return;
            rev = await this.build(deployment, rev, signal, move);
          });
          if (rev.status === 'AWAITING_BUILD') return;
          break;
        case 'BUILDING':
          await this.withBuildSlot(signal, async () => {
            if (!(await resumeStep('BUILDING'))) return;
            rev = await this.build(deployment, rev, signal, move);
          });
          if (rev.status === 'BUILDING') return;
          break;
        case 'AWAITING_DEPLOY':
          if (!(await move(['AWAITING_DEPLOY'], 'DEPLOYING', { attempts: 1 }))) return;
          await this.deploy(deployment, rev, signal, move);
          return;
        case 'DEPLOYING':
          if (!(await resumeStep('DEPLOYING'))) return;
          await this.deploy(deployment, rev, signal, move);
          return;
        default:
          return;
      }
    }
  }

  /** A revision's log of `type` in the database (a writer that drops what it gets when there is no store). */
  private logWriter(rev: Revision, type: RevisionLogType): RevisionLogWriter | undefined {
    const store = this.deps.revisionLogs;
    return store && new RevisionLogWriter(store, rev.id, type, (err) => this.deps.logger.warn({ err, revision_id: rev.id }, 'revision log write failed'));
  }

  private async withBuildSlot(signal: AbortSignal, work: () => Promise<void>): Promise<void> {
    let release: () => void;
    try {
      release = await this.buildSlots.acquire(signal);
    } catch {
      return;
    }
    try {
      await work();
    } finally {
      release();
    }
  }

  private async checkCreatable(deployment: DeploymentRecord, rev: Revision): Promise<string | undefined> {
    const integrationId = str(rev.sourceConfig.integration_id);
    if (integrationId && this.deps.integrationToken && !(await this.deps.integrationToken(deployment.tenantId, integrationId))) {
      return `Integration ${integrationId} has no OAuth token (complete the provider's authorization first)`;
    }
    try {
      for (const secret of await this.store.sealedSecrets(deployment.id)) this.deps.box.open(secret.sealed);
    } catch {
      return 'Secrets cannot be decrypted with the control plane\'s encryption key';
    }
    if (!deployment.database) return 'The deployment has no database';
    return undefined;
  }

  private async build(deployment: DeploymentRecord, rev: Revision, signal: AbortSignal, move: Mover): Promise<Revision> {
    const src = rev.sourceRevisionConfig;
    const integrationId = str(rev.sourceConfig.integration_id);
    const logFile = path.join(this.deps.options.workDir, 'logs', deployment.id, `${rev.id}-build.log`);
    fs.mkdirSync(path.dirname(logFile), { recursive: true });
    const log = this.logWriter(rev, 'build');
    const started = Date.now();
    // Paths in what the user reads are the project's (`src/agent.ts:1:5`), not the build copy's.
    const inProject = relativeTo(this.buildDir(deployment.id, rev.id));
    try {
      const token = integrationId ? ((await this.deps.integrationToken?.(deployment.tenantId, integrationId)) ?? undefined) : undefined;
      const result = await this.deps.builder.build({
        repoUrl: str(rev.sourceConfig.repo_url) as string,
        tenantId: deployment.tenantId,
        ref: str(src.repo_ref) as string,
        commitSha: str(src.repo_commit_sha),
        token,
        configPath: str(src.langgraph_config_path) ?? 'langgraph.json',
        installCommand: str(rev.sourceConfig.install_command),
        buildCommand: str(rev.sourceConfig.build_command),
        dir: this.buildDir(deployment.id, rev.id),
        signal,
        log: (text) => {
          fs.appendFileSync(logFile, text);
          log?.write(inProject(text));
        },
      });
      log?.line(`Build finished: commit ${result.commitSha}`);
      this.deps.logger.info({ deployment_id: deployment.id, revision_id: rev.id, commit: result.commitSha, ms: Date.now() - started, install: result.installReason }, 'build finished');
      await move(['BUILDING'], 'AWAITING_DEPLOY', {
        statusMessage: null,
        artifact: {
          checkoutDir: result.checkoutDir,
          configPath: result.configPath,
          graphs: result.graphs,
          installed: result.installed,
          installCommand: result.installCommand,
          packages: result.packages,
        },
        sourceRevisionConfig: { ...src, repo_commit_sha: result.commitSha },
      });
    } catch (err) {
      if (signal.aborted) await this.afterAbort(signal, move, 'BUILDING', 'AWAITING_BUILD');
      else {
        const message = inProject(err instanceof BuildError ? err.message : `Build failed: ${(err as Error).message}`);
        if (!(err instanceof BuildError)) this.deps.logger.error({ err, revision_id: rev.id }, 'build failed unexpectedly');
        log?.line(message, 'ERROR');
        await move(['BUILDING'], 'BUILD_FAILED', { statusMessage: message });
      }
    } finally {
      await log?.close();
    }
    return (await this.store.revision(rev.id)) ?? rev;
  }

  private async deploy(deployment: DeploymentRecord, rev: Revision, signal: AbortSignal, move: Mover): Promise<void> {
    const log = this.logWriter(rev, 'deploy');
    const inProject = relativeTo(rev.artifact?.checkoutDir);
    try {
      const spec = { ...(await this.specFor(deployment, rev)), log: log && ((text: string) => log.write(inProject(text))) };
      const started = Date.now();
      this.store.assertLeader();
      log?.line(`Starting the Agent Server of revision ${rev.id} (${this.deps.driver.kind} driver)`);
      const { upstreamUrl } = await this.deps.driver.deploy(spec, signal);
      log?.line(`Agent Server healthy after ${Math.round((Date.now() - started) / 100) / 10} s`);
      this.deps.logger.info({ deployment_id: deployment.id, revision_id: rev.id, url: upstreamUrl, ms: Date.now() - started }, 'deploy finished');
      const promoted = await this.store.promote(rev, upstreamUrl, null);
      if (!promoted) {
        // Interrupted or superseded while the driver swapped: its server serves now, so the routing says so.
        await this.store.updateDeployment(deployment.id, { upstreamUrl });
      }
      this.removeOldCheckouts(deployment, rev);
    } catch (err) {
      if (err instanceof LeaseLostError) throw err;
      if (signal.aborted) return this.afterAbort(signal, move, 'DEPLOYING', 'AWAITING_DEPLOY');
      const message = inProject(err instanceof DeployError ? err.message : `Deploy failed: ${(err as Error).message}`);
      if (!(err instanceof DeployError)) this.deps.logger.error({ err, revision_id: rev.id }, 'deploy failed unexpectedly');
      log?.line(message.split('\n')[0], 'ERROR');
      await move(['DEPLOYING'], 'DEPLOY_FAILED', { statusMessage: message });
    } finally {
      await log?.close();
    }
  }

  /** A graceful shutdown hands the step back (it restarts from its start on the next leader); other aborts leave it. */
  private async afterAbort(signal: AbortSignal, move: Mover, step: RevisionStatus, back: RevisionStatus): Promise<void> {
    if (abortReason(signal) === 'shutdown') await move([step], back, { statusMessage: 'Handed back at control-plane shutdown', attempts: 0 }).catch(() => undefined);
  }

  /** What the driver needs to run `rev`: the artifact, the environment (secrets decrypted), resources. */
  async specFor(deployment: DeploymentRecord, rev: Revision): Promise<DeploySpec> {
    const { box, options } = this.deps;
    const database = await this.ownDatabase(deployment);
    const secrets = Object.fromEntries((await this.store.sealedSecrets(deployment.id)).map((s) => [s.name, box.open(s.sealed)]));
    const integrationId = str(rev.sourceConfig.integration_id);
    const artifact = rev.artifact ?? {};
    return {
      deploymentId: deployment.id,
      deploymentName: deployment.name,
      tenantId: deployment.tenantId,
      revisionId: rev.id,
      source: rev.source,
      checkoutDir: artifact.checkoutDir,
      configPath: artifact.configPath,
      repoUrl: str(rev.sourceConfig.repo_url),
      commitSha: str(rev.sourceRevisionConfig.repo_commit_sha),
      repoToken: integrationId ? ((await this.deps.integrationToken?.(deployment.tenantId, integrationId)) ?? undefined) : undefined,
      installCommand: artifact.installed ? (artifact.installCommand ?? str(rev.sourceConfig.install_command) ?? options.defaultInstallCommand) : undefined,
      imageUri: artifact.imageUri,
      env: agentServerEnv({
        deploymentId: deployment.id,
        tenantId: deployment.tenantId,
        deploymentName: deployment.name,
        database,
        tracingKey: deployment.tracingKey ? box.open(deployment.tracingKey) : undefined,
        secrets,
        options: options.agentEnv,
      }),
      sharedDatabase: database.kind === 'postgres',
      resourceSpec: obj(rev.sourceConfig.resource_spec),
      namespace: str(obj(rev.sourceConfig.listener_config)?.k8s_namespace),
    };
  }

  /**
   * The deployment's database location; one recorded before deployments had database roles of their own (its URL
   * names the operator's admin) is given its role first and recorded, so the server about to start connects as it.
   * A run cut off before the record keeps the old location, and the next start does it again with a new password.
   */
  private async ownDatabase(deployment: DeploymentRecord): Promise<DatabaseLocation> {
    const { box, databases } = this.deps;
    // The stored record, not the caller's copy: a copy from before an earlier upgrade would upgrade again.
    const sealed = (await this.store.deployment(deployment.id))?.database ?? deployment.database;
    const location = JSON.parse(box.open(sealed as string)) as DatabaseLocation;
    const isolated = await databases.isolate(deployment.id, location);
    if (!isolated) return location;
    await this.store.updateDeployment(deployment.id, { database: box.seal(JSON.stringify(isolated)) });
    this.deps.logger.info({ deployment_id: deployment.id }, 'deployment database given a role of its own');
    return isolated;
  }

  /** A checkout missing on disk (a fresh work directory) is fetched again at its recorded commit. */
  async ensureCheckout(deployment: DeploymentRecord, rev: Revision): Promise<void> {
    const configPath = rev.artifact?.configPath;
    if (!configPath || fs.existsSync(configPath) || rev.source !== 'github') return;
    const integrationId = str(rev.sourceConfig.integration_id);
    await this.deps.builder.build({
      repoUrl: str(rev.sourceConfig.repo_url) as string,
      tenantId: deployment.tenantId,
      ref: str(rev.sourceRevisionConfig.repo_ref) as string,
      commitSha: str(rev.sourceRevisionConfig.repo_commit_sha),
      token: integrationId ? ((await this.deps.integrationToken?.(deployment.tenantId, integrationId)) ?? undefined) : undefined,
      configPath: str(rev.sourceRevisionConfig.langgraph_config_path) ?? 'langgraph.json',
      installCommand: str(rev.sourceConfig.install_command),
      buildCommand: str(rev.sourceConfig.build_command),
      dir: rev.artifact?.checkoutDir ?? this.buildDir(deployment.id, rev.id),
      signal: new AbortController().signal,
    });
  }

  /** Keeps the checkouts of the new revision and of the one it replaced (still draining); removes the rest. */
  private removeOldCheckouts(deployment: DeploymentRecord, rev: Revision): void {
    const keep = new Set([rev.id, deployment.activeRevisionId]);
    const dir = this.buildDir(deployment.id);
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir)) if (!keep.has(entry)) fs.rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
}

type Mover = (from: RevisionStatus[], to: RevisionStatus, update?: Parameters<ReconcilerRepository['transition']>[3]) => Promise<boolean>;
