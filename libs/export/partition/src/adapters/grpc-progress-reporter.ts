import type { Destination__Output, ExportProgressClient, RunCheckpoint__Output, RunSpec__Output } from '@platform/contracts';
import { InputError } from '@platform/errors';
import type { S3DestinationConnection } from '@platform/export-s3';
import { isCompression, isFormatVersion } from '@platform/export-parquet';
import { callUnary } from '@platform/grpc';
import type { PartitionSpec, RunCheckpoint, RunCursor } from '../partition.types';
import type { FailureReport, ProgressReport, ProgressReporter } from '../ports';

export interface GrpcProgressReporterOptions {
  /** Deadline of each call, retries included (default 15 s). */
  deadlineMs?: number;
  /** Extra attempts on UNAVAILABLE (default 3); the calls are idempotent. */
  retries?: number;
}

const ADDRESSING_STYLES = ['auto', 'virtual', 'path'] as const;

function destinationOf(d: Destination__Output): S3DestinationConnection {
  const style = ADDRESSING_STYLES.find((s) => s === d.addressing_style);
  return {
    bucket_name: d.bucket_name,
    prefix: d.prefix,
    region: d.region || undefined,
    endpoint_url: d.endpoint_url || undefined,
    include_bucket_in_prefix: d.include_bucket_in_prefix,
    addressing_style: style,
    // No keys at all: the SDK's default credential chain (self-hosted).
    credentials: d.access_key_id
      ? { access_key_id: d.access_key_id, secret_access_key: d.secret_access_key, session_token: d.session_token || undefined }
      : undefined,
  };
}

// The compat notes' defaults apply when the export service leaves a value empty.
function specOf(spec: RunSpec__Output): PartitionSpec {
  const formatVersion = spec.format_version || 'v1';
  const compression = spec.compression || 'gzip';
  if (!isFormatVersion(formatVersion)) throw new InputError(`Unknown format_version "${formatVersion}"`);
  if (!isCompression(compression)) throw new InputError(`Unknown compression "${compression}"`);
  if (!spec.destination) throw new InputError('The run spec has no destination');
  return {
    tenantId: spec.tenant_id,
    sessionId: spec.session_id,
    startUs: spec.start_time,
    endUs: spec.end_time,
    filter: spec.filter,
    fields: spec.fields,
    formatVersion,
    compression,
    destination: destinationOf(spec.destination),
  };
}

function checkpointOf(c: RunCheckpoint__Output): RunCheckpoint {
  return {
    continueRun: c.continue_run,
    attempt: c.attempt,
    cursor: c.cursor ? { startTime: c.cursor.start_time, id: c.cursor.id } : undefined,
    rowsWritten: Number(c.rows_written),
    bytesWritten: Number(c.bytes_written),
    files: c.files.map((f) => ({ key: f.key, rows: Number(f.rows), bytes: Number(f.bytes) })),
    spec: c.continue_run && c.spec ? specOf(c.spec) : undefined,
  };
}

const cursorOf = (cursor: RunCursor | undefined) => (cursor ? { start_time: cursor.startTime, id: cursor.id } : undefined);

/** `export.v1.ExportProgress` over gRPC, with a deadline and retries on every (idempotent) call. */
export class GrpcProgressReporter implements ProgressReporter {
  constructor(
    private readonly client: ExportProgressClient,
    private readonly options: GrpcProgressReporterOptions = {},
  ) {}

  private get callOptions() {
    return { deadlineMs: this.options.deadlineMs ?? 15_000, retries: this.options.retries ?? 3 };
  }

  async checkpoint(job: { exportId: string; runId: string }): Promise<RunCheckpoint> {
    const reply = await callUnary(this.client, 'GetRunCheckpoint', { export_id: job.exportId, run_id: job.runId }, this.callOptions);
    return checkpointOf(reply);
  }

  async progress(report: ProgressReport): Promise<{ continueRun: boolean }> {
    const reply = await callUnary(
      this.client,
      'ReportProgress',
      {
        export_id: report.exportId,
        run_id: report.runId,
        attempt: report.attempt,
        cursor: cursorOf(report.cursor),
        rows_written: report.rowsWritten,
        bytes_written: report.bytesWritten,
        files: report.files.map((f) => ({ key: f.key, rows: f.rows, bytes: f.bytes })),
        done: report.done,
      },
      this.callOptions,
    );
    return { continueRun: reply.continue_run };
  }

  async failure(report: FailureReport): Promise<void> {
    await callUnary(
      this.client,
      'ReportFailure',
      { export_id: report.exportId, run_id: report.runId, attempt: report.attempt, error: report.error, retryable: report.retryable },
      this.callOptions,
    );
  }
}
