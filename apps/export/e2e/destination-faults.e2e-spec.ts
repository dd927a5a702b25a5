// Destination errors and S3 failures end to end: every service in-process (on Postgres and NATS JetStream when
// DATABASE_URL and NATS_URL are set, else PGlite and the in-process bus), the destination bucket on s3rver behind a
// fault-injecting proxy (real HTTP, real AWS SDK; only the fault is injected).
import { randomUUID } from 'node:crypto';
import { Client } from 'langsmith';
import { startNotS3Server, startS3FaultProxy, startTestS3Server, type S3FaultProxy, type TestS3Server } from '@platform/export-s3/testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { deletePartitionQueue, uniquePartitionQueue } from '../../export-worker/e2e/worker-processes.e2e.testing';
import { jsonApi, objectKeys, objectsDir, queryParquet, sendTraces, waitFor, type SentRun } from './export.e2e.testing';

const BUCKET = 'exports';
const PREFIX = 'faults';
const FINAL = ['Completed', 'Failed', 'Cancelled', 'TimedOut'];

type ExportRunJson = { id: string; status: string; retry_number: number; errors: Record<string, string>; metadata: { result: { rows_written: number; exported_files: string[] } } };

describe('bulk export destinations and S3 failures, end to end', () => {
  const queue = uniquePartitionQueue('export-destinations');
  let platform: TestPlatform;
  let s3: TestS3Server;
  let proxy: S3FaultProxy;
  let api: ReturnType<typeof jsonApi>;
  let sessionId: string;
  let sent: SentRun[];

  const destinationBody = (config: Record<string, unknown> = {}, credentials: Record<string, string> = {}) => ({
    destination_type: 's3',
    display_name: 'faulty',
    config: { bucket_name: BUCKET, prefix: PREFIX, endpoint_url: proxy.endpoint, region: 'us-east-1', ...config },
    credentials: { access_key_id: 'S3RVER', secret_access_key: 'S3RVER', ...credentials },
  });

  beforeAll(async () => {
    s3 = await startTestS3Server({ buckets: [BUCKET] });
    proxy = await startS3FaultProxy(s3.endpoint);
    platform = await startTestPlatform({
      exportPartitionQueue: queue,
      exportEnv: { EXPORT_DISPATCH_INTERVAL: '100ms', EXPORT_RETRY_DELAY: '300ms' },
      exportWorkerEnv: { EXPORT_WORKER_DUCKDB_THREADS: '1', EXPORT_WORKER_DUCKDB_MEMORY: '256MB' },
    });
    api = jsonApi(`${platform.gatewayUrl}/api/v1`, () => ({ 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId }));
    const client = new Client({ apiUrl: `${platform.gatewayUrl}/api/v1`, apiKey: platform.adminKey, workspaceId: platform.workspaceId });
    const name = `destinations-${randomUUID().slice(0, 8)}`;
    sent = await sendTraces(client, name, Array.from({ length: 8 }, (_, i) => Date.parse('2024-06-10T08:00:00Z') + i * 600_000));
    sessionId = (await api('GET', `/sessions?name=${name}`)).body[0].id;
    await waitFor(
      'the runs to be stored',
      async () => (await api('POST', '/runs/query', { session: [sessionId], limit: 100 })).body?.runs?.length ?? 0,
      (n) => n === sent.length,
    );
  });

  afterEach(() => {
    proxy.setRule(undefined);
    proxy.requests.length = 0;
  });

  afterAll(async () => {
    await platform?.stop();
    await deletePartitionQueue(queue);
    await proxy?.close();
    await s3?.close();
  });

  const exportOnce = async (destinationId: string) => {
    const created = await api('POST', '/bulk-exports', {
      bulk_export_destination_id: destinationId,
      session_id: sessionId,
      start_time: '2024-06-10T00:00:00Z',
      end_time: '2024-06-11T00:00:00Z',
      format_version: 'v2_beta',
    });
    expect(created.status).toBe(200);
    const id: string = created.body.id;
    const exp = await waitFor(`export ${id} to finish`, async () => (await api('GET', `/bulk-exports/${id}`)).body, (e) => FINAL.includes(e.status), 40_000, 150);
    const runs = (await api('GET', `/bulk-exports/${id}/runs`)).body as ExportRunJson[];
    return { id, exp, runs };
  };

  describe('creating a destination writes a test file and names each destination error', () => {
    it.each([
      ['Access denied', () => proxy.setRule((r) => (r.operation === 'PutObject' ? { kind: 's3-error', code: 'AccessDenied' } : undefined)), {}, {}, /^Failed to validate S3 destination: Access denied: PutObject failed with AccessDenied/],
      ['Bucket is not valid', () => undefined, { bucket_name: 'no-such-bucket' }, {}, /^Failed to validate S3 destination: Bucket is not valid: .*NoSuchBucket/],
      ['Key ID you provided does not exist', () => undefined, {}, { access_key_id: 'AKIADOESNOTEXIST' }, /^Failed to validate S3 destination: Key ID you provided does not exist: .*InvalidAccessKeyId/],
    ])('%s', async (_condition, arrange, config, credentials, detail) => {
      arrange();
      const reply = await api('POST', '/bulk-exports/destinations', destinationBody(config, credentials));
      expect(reply.status).toBe(400);
      expect(reply.body.detail).toMatch(detail);
    });

    it('Invalid endpoint', async () => {
      const notS3 = await startNotS3Server();
      try {
        const reply = await api('POST', '/bulk-exports/destinations', destinationBody({ endpoint_url: notS3.endpoint }));
        expect(reply.status).toBe(400);
        expect(reply.body.detail).toMatch(/^Failed to validate S3 destination: Invalid endpoint/);
      } finally {
        await notS3.close();
      }
    });

    it('a valid destination keeps its test file only where delete is denied, outside the export folders', async () => {
      proxy.setRule((r) => (r.operation === 'DeleteObject' ? { kind: 's3-error', code: 'AccessDenied' } : undefined));
      const reply = await api('POST', '/bulk-exports/destinations', destinationBody({ prefix: 'kept' }));
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ config: { bucket_name: BUCKET, prefix: 'kept' }, credentials_keys: ['access_key_id', 'secret_access_key'] });
      expect(JSON.stringify(reply.body)).not.toContain('S3RVER');
      expect(objectKeys(s3.directory, BUCKET, 'kept').every((k) => k.startsWith('tmp/'))).toBe(true);
      expect(objectKeys(s3.directory, BUCKET, 'kept')).toHaveLength(1);
    });
  });

  it('a transient S3 failure outlasting the SDK retries fails one attempt, recorded as retry_0; the retry completes the export with every row once', async () => {
    const destination = await api('POST', '/bulk-exports/destinations', destinationBody());
    expect(destination.status).toBe(200);
    // The AWS SDK retries a 500 itself (3 attempts); a store that answers 500 to all three fails the attempt.
    let failures = 0;
    proxy.setRule((r) => (r.operation === 'UploadPart' && failures < 3 ? (failures++, { kind: 's3-error', code: 'InternalError', status: 500, message: 'We encountered an internal error' }) : undefined));
    const { id, exp, runs } = await exportOnce(destination.body.id);
    expect(exp.status).toBe('Completed');
    expect(failures).toBe(3);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'Completed', retry_number: 1, errors: { retry_0: expect.stringMatching(/^UploadPart failed with InternalError \(HTTP 500\)/) } });
    const ops = proxy.requests.map((r) => r.operation);
    // The failed attempt's upload was aborted; the second attempt uploaded the file once.
    expect(ops.filter((o) => o === 'AbortMultipartUpload')).toHaveLength(1);
    expect(ops.filter((o) => o === 'CompleteMultipartUpload')).toHaveLength(1);
    const [read] = await queryParquet(objectsDir(s3.directory, BUCKET, `${PREFIX}/export_id=${id}`), 'SELECT count(*)::INTEGER AS n, count(DISTINCT id)::INTEGER AS ids FROM {files}');
    expect(read).toEqual({ n: sent.length, ids: sent.length });
  });

  it.each([
    ['the bucket is deleted during the export', 'CreateMultipartUpload', 'NoSuchBucket', 404, /^Bucket is not valid: CreateMultipartUpload failed with NoSuchBucket/],
    ['write permission is revoked during the export', 'UploadPart', 'AccessDenied', 403, /^Access denied: UploadPart failed with AccessDenied/],
  ])('fails the export without retrying when %s', async (_case, operation, code, status, error) => {
    const destination = await api('POST', '/bulk-exports/destinations', destinationBody());
    expect(destination.status).toBe(200);
    proxy.setRule((r) => (r.operation === operation ? { kind: 's3-error', code, status } : undefined));
    const { id, exp, runs } = await exportOnce(destination.body.id);
    expect(exp.status).toBe('Failed');
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ status: 'Failed', retry_number: 0, errors: { retry_0: expect.stringMatching(error) } });
    expect(Object.keys(runs[0].errors)).toEqual(['retry_0']);
    expect(proxy.requests.filter((r) => r.operation === operation)).toHaveLength(1);
    expect(objectKeys(s3.directory, BUCKET, `${PREFIX}/export_id=${id}`)).toEqual([]);
  });
});
