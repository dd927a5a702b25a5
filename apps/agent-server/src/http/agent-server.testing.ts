import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { RunningService } from '@platform/http-server';
import { signIdentity } from '@platform/identity';
import { silentLogger, type Logger } from '@platform/logging';
import { createTestDatabase } from '@platform/testing';
import { loadAgentServerConfig } from '../config';
import { startAgentServer } from '../service';

/** The end-to-end suites' deployment: slow, approval (interrupt), nested (subgraph), progress, failing, agent. */
export const E2E_FIXTURES = path.resolve(__dirname, '../../e2e/fixtures/langgraph.json');

export interface TestAgentServer {
  server: RunningService;
  /** Where the server's database is when it is Postgres (undefined: embedded PGlite, inside the server). */
  databaseUrl?: string;
  /** Headers the gateway would add: an identity signed with the server's secret. */
  headers: Record<string, string>;
  stop(): Promise<void>;
}

/**
 * The whole agent server (database, graphs, run workers, HTTP) on a database of its own — Postgres with
 * DATABASE_URL, else embedded PGlite — as the SDK-level specs drive it.
 */
export async function startTestAgentServer(
  options: { langgraphConfigPath?: string; env?: Record<string, string>; secret?: string; logger?: Logger } = {},
): Promise<TestAgentServer> {
  const secret = options.secret ?? `test-secret-${randomUUID()}`;
  const database = await createTestDatabase();
  try {
    const server = await startAgentServer(
      loadAgentServerConfig({
        DEPLOYMENT_KEY: secret,
        DATABASE_URL: database.url,
        DATA_DIR: 'memory://',
        MIGRATE_ON_START: 'true',
        PORT: '0',
        LANGGRAPH_CONFIG_PATH: options.langgraphConfigPath ?? E2E_FIXTURES,
        LOG_LEVEL: 'silent',
        // The tests' webhook receivers listen on 127.0.0.1, which only the operator's allowlist opens.
        EGRESS_ALLOWED_CIDRS: '127.0.0.1/32',
        ...options.env,
      }),
      options.logger ?? silentLogger,
    );
    const requestId = randomUUID();
    const identity = signIdentity(secret, { tenantId: randomUUID(), organizationId: 'org', subject: 'sdk' }, requestId);
    return {
      server,
      databaseUrl: database.url,
      headers: { 'x-request-id': requestId, ...identity },
      stop: async () => {
        await server.stop();
        await database.drop();
      },
    };
  } catch (err) {
    await database.drop();
    throw err;
  }
}

/** A local HTTP server recording the JSON bodies posted to it, as a run's webhook receives them. */
export async function receiveWebhooks(): Promise<{ url: string; received: Record<string, unknown>[]; close(): void }> {
  const received: Record<string, unknown>[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(JSON.parse(body) as Record<string, unknown>);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, received, close: () => server.close() };
}

/** `fetch` that sets these headers on every request (what the gateway adds), keeping the caller's others. */
export function fetchWithHeaders(headers: Record<string, string>): typeof fetch {
  return (input, init) => {
    const merged = new Headers(init?.headers);
    for (const [name, value] of Object.entries(headers)) merged.set(name, value);
    return fetch(input, { ...init, headers: merged });
  };
}
