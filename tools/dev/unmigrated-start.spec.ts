import { startFailure, type RunningService } from '@platform/http-server';
import { silentLogger } from '@platform/logging';
import { createTestDatabase, type TestDatabase } from '@platform/testing';
import { loadAgentServerConfig } from '../../apps/agent-server/src/config';
import { startAgentServer } from '../../apps/agent-server/src/service';
import { loadControlPlaneConfig } from '../../apps/control-plane/src/config';
import { startControlPlane } from '../../apps/control-plane/src/service';
import { loadExportConfig } from '../../apps/export/src/config';
import { startExport } from '../../apps/export/src/service';
import { loadGatewayConfig } from '../../apps/gateway/src/config';
import { startGateway } from '../../apps/gateway/src/service';
import { loadTracingConfig } from '../../apps/tracing/src/config';
import { startTracing } from '../../apps/tracing/src/service';

type Start = (env: Record<string, string | undefined>) => Promise<RunningService>;

const common = { INTERNAL_SECRET: 'unmigrated-secret-0123456789', HOST: '127.0.0.1', PORT: '0', GRPC_PORT: '0', DATA_DIR: 'memory://', LOG_LEVEL: 'silent' };
const SERVICES: [string, Start][] = [
  ['gateway', (env) => startGateway(loadGatewayConfig({ ...env, CONTROL_PLANE_URL: 'http://127.0.0.1:9', TRACING_URL: 'http://127.0.0.1:9', EXPORT_URL: 'http://127.0.0.1:9', CONTROL_PLANE_GRPC: '127.0.0.1:9' }), silentLogger)],
  ['control-plane', (env) => startControlPlane(loadControlPlaneConfig(env), silentLogger)],
  ['tracing', (env) => startTracing(loadTracingConfig(env), silentLogger)],
  ['export', (env) => startExport(loadExportConfig({ ...env, EXPORT_ENCRYPTION_KEY: 'a'.repeat(64) }), silentLogger)],
  // An Agent Server holds its deployment's key, never the platform's secret.
  ['agent-server', ({ INTERNAL_SECRET: _secret, ...env }) => startAgentServer(loadAgentServerConfig({ ...env, DEPLOYMENT_KEY: 'unmigrated-deployment-key-0123456789' }), silentLogger)],
];

// A service pointed at an empty database (Postgres with DATABASE_URL, else PGlite) and not told to migrate stops at
// once, saying what to run, instead of starting and failing on every query.
describe.each(SERVICES)('%s on an empty database', (service, start) => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(() => database.drop());

  it('refuses to start without MIGRATE_ON_START, naming `main.cjs migrate` and MIGRATE_ON_START', async () => {
    const failure = await start({ ...common, DATABASE_URL: database.url }).then(
      async (running) => {
        await running.stop();
        throw new Error(`${service} started on an empty database`);
      },
      (err: unknown) => err,
    );
    expect(failure).toMatchObject({ name: 'NotMigratedError', message: expect.stringContaining('none of its') });
    const told = startFailure(service, failure);
    expect(told).toContain(`node dist/apps/${service}/main.cjs migrate`);
    expect(told).toContain('MIGRATE_ON_START=true');
  });
});
