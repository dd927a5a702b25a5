import { ConfigError } from '@platform/config';
import { loadExportWorkerConfig } from './config';

const base = { INTERNAL_SECRET: 'a-secret-of-16-chars', TRACING_GRPC: 'tracing:50052', EXPORT_GRPC: 'export:50053' };

describe('export worker config', () => {
  it('defaults to 64 MiB / 1M-row files, 8 MiB parts, one job at a time and heartbeats inside a 60 s ack wait', () => {
    expect(loadExportWorkerConfig(base)).toMatchObject({
      EXPORT_WORKER_CONCURRENCY: 1,
      EXPORT_WORKER_FILE_MAX_BYTES: 64 * 1024 * 1024,
      EXPORT_WORKER_FILE_MAX_ROWS: 1_000_000,
      EXPORT_WORKER_PART_BYTES: 8 * 1024 * 1024,
      EXPORT_WORKER_ACK_WAIT: 60_000,
      EXPORT_WORKER_STREAM_DEADLINE: 4 * 3_600_000,
      EXPORT_WORKER_DUCKDB_MEMORY: '1GB',
      // A killed worker's staging folder lasts at most 30 s while another worker on the volume runs.
      EXPORT_WORKER_STAGING_SWEEP_INTERVAL: 30_000,
    });
  });

  it('takes durations with units and sizes', () => {
    const config = loadExportWorkerConfig({ ...base, EXPORT_WORKER_ACK_WAIT: '2m', EXPORT_WORKER_DUCKDB_MEMORY: '512MB', EXPORT_WORKER_FILE_MAX_ROWS: '5000' });
    expect(config).toMatchObject({ EXPORT_WORKER_ACK_WAIT: 120_000, EXPORT_WORKER_DUCKDB_MEMORY: '512MB', EXPORT_WORKER_FILE_MAX_ROWS: 5_000 });
  });

  it.each([
    ['EXPORT_WORKER_PART_BYTES', String(4 * 1024 * 1024)],
    ['EXPORT_WORKER_DUCKDB_MEMORY', 'lots'],
    ['EXPORT_GRPC', 'export'],
  ])('rejects a bad %s, naming it', (name, value) => {
    expect(() => loadExportWorkerConfig({ ...base, [name]: value })).toThrow(ConfigError);
    expect(() => loadExportWorkerConfig({ ...base, [name]: value })).toThrow(name);
  });
});
