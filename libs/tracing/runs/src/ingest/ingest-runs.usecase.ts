import { NotFoundError } from '@platform/errors';
import type { IngestLimits } from '@platform/rate-limit';
import type { RunBatchWrite } from '../runs.repository';
import type { IngestBatch } from './ingest-batch';
import type { SessionLookup } from './plan-writes';
import { FairWriteQueue } from './fair-write-queue';
import type { IngestAdmission } from './ingest-admission';
import { mergeOperations } from './run-write';

/** The tracing projects runs are logged into (implemented by the projects store). */
export interface RunProjects {
  /** Ids of the workspace's projects with these names, creating those that don't exist yet. */
  ensureNamed(tenantId: string, names: string[]): Promise<Map<string, string>>;
  /** Those of `ids` that are projects of the workspace. */
  existingIds(tenantId: string, ids: string[]): Promise<Set<string>>;
}

export interface RunBatchWriter {
  writeBatch(batch: RunBatchWrite): Promise<void>;
}

export interface IngestRunsOptions {
  /** Batches written at once by this process (each holds a database connection), shared fairly by workspaces. */
  maxConcurrentWrites?: number;
  /** Batches of one workspace waiting for a write slot in this process; more are refused with 429. */
  maxQueuedWritesPerWorkspace?: number;
  /** The project of runs that name none. */
  defaultProjectName?: string;
  /** Per-workspace rates and quota; absent, nothing is limited but the write slots. */
  admission?: IngestAdmission;
}

export interface IngestCallOptions {
  /** Runs an update requires to be known (`PATCH /runs/{id}`). */
  mustExist?: string[];
  /** The workspace's ingestion limits as the gateway sent them (else the service's defaults). */
  limits?: IngestLimits;
}

/** Ingestion of run creates, updates and feedback, whatever endpoint they came through. */
export class IngestRuns {
  private readonly writes: FairWriteQueue;
  private readonly defaultProject: string;

  constructor(
    private readonly projects: RunProjects,
    private readonly runs: RunBatchWriter,
    private readonly options: IngestRunsOptions = {},
  ) {
    this.writes = new FairWriteQueue({ maxConcurrent: options.maxConcurrentWrites ?? 4, maxQueuedPerKey: options.maxQueuedWritesPerWorkspace ?? 1000 });
    this.defaultProject = options.defaultProjectName ?? 'default';
  }

  /** Refuses (429) a body of `bytes` the workspace may not send now, before it is read. */
  admitBytes(tenantId: string, limits: IngestLimits | undefined, bytes: number): void {
    this.options.admission?.admitBytes(tenantId, limits, bytes);
  }

  /** Charges a body read without a Content-Length (the SDK streams multipart bodies chunked) once its size is known. */
  chargeBytes(tenantId: string, limits: IngestLimits | undefined, bytes: number): void {
    this.options.admission?.chargeBytes(tenantId, limits, bytes);
  }

  /** Stores a batch within the workspace's limits (429 past them). */
  async ingest(tenantId: string, batch: IngestBatch, options: IngestCallOptions = {}): Promise<void> {
    const writes = mergeOperations(batch.operations);
    const { feedback, attachments } = batch;
    if (writes.length === 0 && feedback.length === 0 && attachments.length === 0) return;
    const creates = batch.operations.filter((op) => op.kind === 'post').length;
    await this.options.admission?.admitRuns(tenantId, options.limits, batch.operations.length, creates);
    const sessions = await this.resolveSessions(tenantId, batch);
    // Each workspace queues for the write slots on its own: a flood of one never delays the others' writes much.
    await this.writes.run(tenantId, () => this.runs.writeBatch({ tenantId, writes, feedback, attachments, sessions, mustExist: options.mustExist }));
  }

  /** Projects named by id must exist in the workspace; projects named by name are created on first use. */
  private async resolveSessions(tenantId: string, batch: IngestBatch): Promise<SessionLookup> {
    const ids = new Set<string>();
    const names = new Set<string>();
    for (const op of batch.operations) {
      if (op.sessionId) ids.add(op.sessionId);
      else if (op.sessionName) names.add(op.sessionName);
      else if (op.kind === 'post') names.add(this.defaultProject);
    }
    if (ids.size) {
      const known = await this.projects.existingIds(tenantId, [...ids]);
      const unknown = [...ids].find((id) => !known.has(id));
      if (unknown) throw new NotFoundError(`Tracing project ${unknown} not found`);
    }
    const byName = names.size ? await this.projects.ensureNamed(tenantId, [...names]) : new Map<string, string>();
    const defaultName = this.defaultProject;
    return {
      idFor: (sessionId, sessionName) => sessionId ?? (sessionName === undefined ? undefined : byName.get(sessionName)),
      get defaultId() {
        const id = byName.get(defaultName);
        if (!id) throw new Error('default project was not resolved');
        return id;
      },
    };
  }
}
