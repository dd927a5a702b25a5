import { NotFoundError } from '@platform/errors';
import { callUnary, createClient, readStream, serverStream, startGrpcServer, unary, type GrpcServerHandle } from '@platform/grpc';
import {
  deploymentsService,
  exportProgressService,
  healthService,
  runsService,
  type ExportProgressClient,
  type RunBatch,
  type RunsClient,
  type StreamRunsRequest__Output,
} from './index';

describe('service definitions', () => {
  it.each([
    [deploymentsService, 'controlplane.v1.Deployments', { ResolveDeployment: false }],
    [runsService, 'tracing.v1.Runs', { StreamRuns: true }],
    [exportProgressService, 'export.v1.ExportProgress', { ReportProgress: false, ReportFailure: false, GetRunCheckpoint: false }],
    [healthService, 'grpc.health.v1.Health', { Check: false, Watch: true }],
  ] as const)('%p loads %s', (load, name, methods) => {
    const service = load();
    expect(service.name).toBe(name);
    const shape = Object.fromEntries(Object.entries(service.definition).map(([m, d]) => [m, d.responseStream]));
    expect(shape).toEqual(methods);
    for (const definition of Object.values(service.definition)) expect(definition.requestStream).toBe(false);
    expect(typeof service.Client).toBe('function');
  });
});

describe('round trips through the generated types', () => {
  let server: GrpcServerHandle;
  let seenRequest: StreamRunsRequest__Output | undefined;
  const checkpoints = new Map<string, { cursor: { start_time: string; id: string } | null; rows: string }>();

  beforeAll(async () => {
    server = await startGrpcServer({
      host: '127.0.0.1',
      port: 0,
      services: [
        deploymentsService().implement({
          ResolveDeployment: unary(async (req) => {
            if (req.deployment_id !== 'd1' || (req.tenant_id !== '' && req.tenant_id !== 't1')) {
              throw new NotFoundError('Deployment not found');
            }
            return {
              deployment_id: 'd1',
              tenant_id: 't1',
              name: 'agent',
              upstream_url: 'http://127.0.0.1:8123',
              status: 'READY',
              revision_id: 'r1',
              replica_urls: ['http://127.0.0.1:8123', 'http://127.0.0.1:8124'],
            };
          }),
        }),
        runsService().implement({
          StreamRuns: serverStream(async function* (req): AsyncGenerator<RunBatch> {
            seenRequest = req;
            yield {
              runs: [
                { id: 'a', start_time: '1714564800123456', name: 'root', is_root: true, total_tokens: 12, total_cost: '0.000123', tags: ['x'] },
                { id: 'b', start_time: '1714564800123457', parent_run_id: 'a', parent_run_ids: ['a'], end_time: '1714564801000000', error: '' },
              ],
              cursor: { start_time: '1714564800123457', id: 'b' },
            };
          }),
        }),
        exportProgressService().implement({
          ReportProgress: unary(async (req) => {
            checkpoints.set(req.run_id, { cursor: req.cursor, rows: req.rows_written });
            return { continue_run: req.run_id !== 'cancelled' };
          }),
          ReportFailure: unary(async () => ({})),
          GetRunCheckpoint: unary(async (req) => {
            const saved = checkpoints.get(req.run_id);
            return { cursor: saved?.cursor ?? null, rows_written: saved?.rows ?? 0, continue_run: true };
          }),
        }),
      ],
    });
  });

  afterAll(() => server.shutdown(1_000));

  const address = () => `127.0.0.1:${server.port}`;

  it('resolves a deployment, and NOT_FOUND for another tenant', async () => {
    const client = createClient(deploymentsService().Client, address());
    const res = await callUnary(client, 'ResolveDeployment', { deployment_id: 'd1', tenant_id: 't1' });
    expect(res.upstream_url).toBe('http://127.0.0.1:8123');
    expect(res.replica_urls).toEqual(['http://127.0.0.1:8123', 'http://127.0.0.1:8124']);
    await expect(callUnary(client, 'ResolveDeployment', { deployment_id: 'd1', tenant_id: 't2' })).rejects.toBeInstanceOf(NotFoundError);
    client.close();
  });

  it('streams runs: int64 as strings, absent optionals stay absent, defaults filled', async () => {
    const client: RunsClient = createClient(runsService().Client, address());
    const batches = [];
    for await (const batch of readStream(client, 'StreamRuns', { session_id: 's', start_time: 1714564800000000, end_time: '1714651200000000' })) {
      batches.push(batch);
    }
    client.close();
    expect(seenRequest).toEqual(
      expect.objectContaining({ session_id: 's', start_time: '1714564800000000', end_time: '1714651200000000', fields: [], cursor: null, batch_size: 0 }),
    );
    const [root, child] = batches[0].runs;
    expect(root).toEqual(expect.objectContaining({ id: 'a', is_root: true, total_tokens: '12', total_cost: '0.000123', tags: ['x'] }));
    expect(root).not.toHaveProperty('parent_run_id');
    expect(root).not.toHaveProperty('end_time');
    expect(root).not.toHaveProperty('inputs');
    expect(child).toEqual(expect.objectContaining({ parent_run_id: 'a', parent_run_ids: ['a'], end_time: '1714564801000000', is_root: false }));
    // A present-but-empty optional stays distinguishable from an absent one.
    expect(child.error).toBe('');
    expect(batches[0].cursor).toEqual({ start_time: '1714564800123457', id: 'b' });
  });

  it('records progress and hands the checkpoint back', async () => {
    const client: ExportProgressClient = createClient(exportProgressService().Client, address());
    await expect(callUnary(client, 'GetRunCheckpoint', { export_id: 'e', run_id: 'r' })).resolves.toEqual(
      expect.objectContaining({ cursor: null, rows_written: '0', files: [], continue_run: true }),
    );
    const reply = await callUnary(client, 'ReportProgress', {
      export_id: 'e',
      run_id: 'r',
      attempt: 0,
      cursor: { start_time: '1714564800123457', id: 'b' },
      rows_written: 2,
      files: [{ key: 'p/export_id=e/runs/year=2024/month=05/day=01/r-0.parquet', rows: 2, bytes: 512 }],
    });
    expect(reply).toEqual({ continue_run: true });
    const checkpoint = await callUnary(client, 'GetRunCheckpoint', { export_id: 'e', run_id: 'r' });
    expect(checkpoint.cursor).toEqual({ start_time: '1714564800123457', id: 'b' });
    expect(checkpoint.rows_written).toBe('2');
    await expect(callUnary(client, 'ReportProgress', { export_id: 'e', run_id: 'cancelled' })).resolves.toEqual({ continue_run: false });
    client.close();
  });
});
