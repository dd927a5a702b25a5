import fs from 'node:fs';
import path from 'node:path';
import {
  IN_PROGRESS_STATUSES,
  isInProgress,
  LeaseLostError,
  type DatabaseLease,
  type DeploymentRecord,
  type ReconcilerRepository,
} from '@platform/control-plane-data-access';
import type { DatabaseLocation, DeploySpec } from '@platform/control-plane-drivers';
import type { AbortReason } from './abort-reasons';
import type { ReconcilerDeps } from './reconciler-deps';
import { RevisionSteps } from './revision-steps';
import { Semaphore } from './semaphore';

interface Job {
  deploymentId: string;
  kind: 'revision' | 'delete';
  revisionId?: string;
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Turns the desired state in the database into running Agent Servers. Every replica runs one; the holder of the
 * `reconciler` lease is the only writer (its writes are fenced by the lease) and the only one driving the driver.
 * One job per deployment at a time: provision its database, walk its latest revision to DEPLOYED (older ones in
 * progress become SKIPPED), or delete it. All progress is in the database, so a new leader (or a restarted
 * control plane) picks up where the last one stopped.
 */
export class Reconciler {
  private readonly lease: DatabaseLease;
  private readonly store: ReconcilerRepository;
  private readonly steps: RevisionSteps;
  private readonly jobs = new Map<string, Job>();
  private leader = false;
  private leadership: Promise<void> = Promise.resolve();
  private heartbeat?: NodeJS.Timeout;
  private poller?: NodeJS.Timeout;
  private ticking = false;
  private again = false;
  private stopped = false;

  constructor(private readonly deps: ReconcilerDeps) {
    this.store = deps.records;
    this.lease = deps.records.lease;
    this.steps = new RevisionSteps(deps, this.store, new Semaphore(deps.options.maxConcurrentBuilds));
  }

  /** A driver moved a deployment to another URL on its own (an instance restarted elsewhere). */
  async recordUpstream(deploymentId: string, upstreamUrl: string): Promise<void> {
    if (this.isLeader) await this.store.updateDeployment(deploymentId, { upstreamUrl });
  }

  /** Leading, and still sure of it by this replica's own clock (see DatabaseLease.held). */
  get isLeader(): boolean {
    return this.leader && this.lease.held;
  }

  start(): void {
    const beat = Math.max(200, Math.floor(this.lease.ttlMs / 3));
    this.heartbeat = setInterval(() => void this.renew(), beat);
    this.poller = setInterval(() => this.notify(), this.deps.options.pollIntervalMs);
    void this.renew().then(() => this.notify());
  }

  /** There may be new work (called by the API after a write; the poll catches what this replica did not see). */
  notify(): void {
    if (this.stopped) return;
    if (this.ticking) {
      this.again = true;
      return;
    }
    this.ticking = true;
    void this.tick()
      .catch((err: unknown) => this.deps.logger.error({ err }, 'reconcile pass failed'))
      .finally(() => {
        this.ticking = false;
        if (this.again) {
          this.again = false;
          this.notify();
        }
      });
  }

  /** Graceful stop: in-flight steps are handed back (they restart on the next leader), the lease is released. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.heartbeat);
    clearInterval(this.poller);
    await this.abortAll('shutdown');
    if (this.leader) await this.lease.release().catch(() => undefined);
    this.leader = false;
    await this.deps.driver.close();
  }

  private async renew(): Promise<void> {
    if (this.stopped) return;
    let held: boolean;
    try {
      held = await this.lease.acquire();
    } catch (err) {
      this.deps.logger.warn({ err }, 'could not renew the reconciler lease');
      // Unrenewed past its time to live, the lease may be another replica's by now.
      if (this.leader && !this.lease.held) await this.stepDown();
      return;
    }
    if (held && !this.leader) {
      this.leader = true;
      this.deps.logger.info({ holder: this.lease.holder }, 'reconciler leadership acquired');
      this.leadership = this.resumeDriver().catch((err: unknown) => this.deps.logger.error({ err }, 'resuming deployments failed'));
      await this.leadership;
      this.notify();
    } else if (!held && this.leader) {
      await this.stepDown();
    }
  }

  private async stepDown(): Promise<void> {
    this.leader = false;
    this.deps.logger.warn({ holder: this.lease.holder }, 'reconciler leadership lost');
    await this.abortAll('lease-lost');
    await this.deps.driver.release();
  }

  /** A new leader makes the driver run exactly the deployments' active revisions (adopting what still runs). */
  private async resumeDriver(): Promise<void> {
    const specs: DeploySpec[] = [];
    const active = await this.store.activeDeployments();
    for (const { deployment, revision } of active) {
      try {
        await this.steps.ensureCheckout(deployment, revision);
        specs.push(await this.steps.specFor(deployment, revision));
      } catch (err) {
        this.deps.logger.error({ err, deployment_id: deployment.id }, 'cannot resume deployment');
      }
    }
    this.store.assertLeader();
    const urls = await this.deps.driver.resume(specs);
    for (const { deployment } of active) {
      const url = urls.get(deployment.id) ?? null;
      if (url !== deployment.upstreamUrl) await this.store.updateDeployment(deployment.id, { upstreamUrl: url });
    }
  }

  private async tick(): Promise<void> {
    if (!this.isLeader || this.stopped) return;
    await this.leadership;
    await this.watchJobs();
    for (const deployment of await this.store.deploymentsWithWork()) {
      if (!this.jobs.has(deployment.id) && this.isLeader && !this.stopped) this.startJob(deployment);
    }
  }

  /** Aborts jobs whose work went away: the revision was interrupted or superseded, or the deployment is being deleted. */
  private async watchJobs(): Promise<void> {
    for (const job of this.jobs.values()) {
      const deployment = await this.store.deployment(job.deploymentId);
      if (!deployment) this.abort(job, 'deleted');
      else if (job.kind === 'revision' && deployment.status === 'AWAITING_DELETE') this.abort(job, 'deleted');
      else if (job.revisionId) {
        const revision = await this.store.revision(job.revisionId);
        if (!revision || revision.status === 'INTERRUPTED') this.abort(job, 'interrupted');
        else if (isInProgress(revision.status) && deployment.latestRevisionId !== job.revisionId) this.abort(job, 'superseded');
      }
    }
  }

  private startJob(deployment: DeploymentRecord): void {
    const controller = new AbortController();
    const job: Job = { deploymentId: deployment.id, kind: deployment.status === 'AWAITING_DELETE' ? 'delete' : 'revision', controller, done: Promise.resolve() };
    this.jobs.set(deployment.id, job);
    job.done = this.runJob(job)
      .catch((err: unknown) => {
        if (err instanceof LeaseLostError) return;
        this.deps.logger.error({ err, deployment_id: deployment.id }, 'deployment job failed; retrying on the next pass');
      })
      .finally(() => {
        this.jobs.delete(deployment.id);
        // What is left (a newer revision, a deletion) is picked up at once, unless this replica is stepping down.
        const reason = controller.signal.reason as AbortReason | undefined;
        if (reason !== 'shutdown' && reason !== 'lease-lost') this.notify();
      });
  }

  private async runJob(job: Job): Promise<void> {
    const signal = job.controller.signal;
    let deployment = await this.store.deployment(job.deploymentId);
    if (!deployment) return;
    if (job.kind === 'delete') return this.remove(deployment);
    if (deployment.status === 'AWAITING_DATABASE') deployment = await this.provision(deployment);
    while (!signal.aborted) {
      const revisions = await this.store.inProgressRevisions(deployment.id);
      const latest = revisions.at(-1);
      if (!latest) return;
      for (const older of revisions.slice(0, -1)) {
        await this.store.transition(older, [...IN_PROGRESS_STATUSES], 'SKIPPED', { statusMessage: `Superseded by revision ${latest.id}` });
      }
      job.revisionId = latest.id;
      await this.steps.advance(deployment, latest, signal);
      deployment = (await this.store.deployment(deployment.id)) ?? deployment;
    }
  }

  /** The deployment's own database (and its tracing credential), then READY. */
  private async provision(deployment: DeploymentRecord): Promise<DeploymentRecord> {
    const { box, databases, tracingKeys } = this.deps;
    const location = await databases.provision(deployment.id);
    const update: Parameters<ReconcilerRepository['provisioned']>[1] = { database: box.seal(JSON.stringify(location)) };
    if (tracingKeys && deployment.organizationId && !deployment.tracingKeyId) {
      try {
        const key = await tracingKeys.mint({ tenantId: deployment.tenantId, organizationId: deployment.organizationId }, `Tracing for deployment ${deployment.name} (${deployment.id})`);
        Object.assign(update, { tracingKeyId: key.id, tracingKey: box.seal(key.key) });
      } catch (err) {
        // Tracing is an extra: the deployment still runs, without traces.
        this.deps.logger.warn({ err, deployment_id: deployment.id }, 'could not mint a tracing key; deployment runs without tracing');
      }
    }
    await this.store.provisioned(deployment.id, update);
    this.deps.logger.info({ deployment_id: deployment.id, database: location.kind }, 'deployment database ready');
    return { ...deployment, ...update, status: 'READY' };
  }

  /** Stops what runs, drops the database, revokes the tracing key, removes files and rows. */
  private async remove(deployment: DeploymentRecord): Promise<void> {
    const { box, databases, driver, tracingKeys, options } = this.deps;
    const namespace = (deployment.sourceConfig.listener_config as { k8s_namespace?: string } | undefined)?.k8s_namespace;
    this.store.assertLeader();
    await driver.destroy(deployment.id, namespace);
    // Without a recorded location, what a cut-off provisioning may have made is dropped all the same.
    await databases.drop(deployment.id, deployment.database ? (JSON.parse(box.open(deployment.database)) as DatabaseLocation) : undefined);
    if (tracingKeys && deployment.tracingKeyId && deployment.organizationId) {
      await tracingKeys
        .revoke({ tenantId: deployment.tenantId, organizationId: deployment.organizationId }, deployment.tracingKeyId)
        .catch((err: unknown) => this.deps.logger.warn({ err, deployment_id: deployment.id }, 'could not revoke the tracing key'));
    }
    fs.rmSync(this.steps.buildDir(deployment.id), { recursive: true, force: true });
    fs.rmSync(path.join(options.workDir, 'logs', deployment.id), { recursive: true, force: true });
    await this.store.removeDeployment(deployment.id);
    this.deps.logger.info({ deployment_id: deployment.id }, 'deployment deleted');
  }

  private abort(job: Job, reason: AbortReason): void {
    if (job.controller.signal.aborted) return;
    this.deps.logger.info({ deployment_id: job.deploymentId, revision_id: job.revisionId, reason }, 'aborting deployment job');
    job.controller.abort(reason);
  }

  private async abortAll(reason: AbortReason): Promise<void> {
    const jobs = [...this.jobs.values()];
    for (const job of jobs) this.abort(job, reason);
    await Promise.all(jobs.map((j) => j.done));
  }
}
