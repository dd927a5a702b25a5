// Shared pieces of the agent server's end-to-end suites: the test deployment, SDK clients through the gateway,
// extra replicas on the same database, and small polling helpers.
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import type { RunningService } from '@platform/http-server';
import { silentLogger } from '@platform/logging';
import { loadAgentServerConfig } from '../src/config';
import { startAgentServer } from '../src/service';
import { registerDeployment, serving, testDeploymentEnv, type TestPlatform } from '../../../tools/dev/test-platform';

/** The test deployment: slow, approval (interrupt), nested (subgraph), progress (custom events), failing, agent. */
export const TEST_LANGGRAPH_CONFIG = path.join(__dirname, 'fixtures', 'langgraph.json');

/** Short leases and heartbeats, so a lost replica is noticed within seconds. */
export const FAST_RUN_SETTINGS: Record<string, string> = {
  RUN_LEASE: '2s',
  RUN_HEARTBEAT_INTERVAL: '400ms',
  RUN_SWEEP_INTERVAL: '400ms',
  RUN_POLL_INTERVAL: '500ms',
  RUN_MAX_ATTEMPTS: '3',
  SSE_HEARTBEAT_INTERVAL: '300ms',
  RUN_SHUTDOWN_GRACE: '2s',
};

/** An SDK client for a deployment, through the gateway, as the admin key of the platform's workspace. */
export function deploymentClient(platform: TestPlatform, deploymentId: string): Client {
  return new Client({
    apiUrl: `${platform.gatewayUrl}/deployments/${deploymentId}`,
    apiKey: platform.adminKey,
    defaultHeaders: { 'X-Tenant-Id': platform.workspaceId },
  });
}

/** Raw `fetch` to a deployment through the gateway (status codes, headers, SSE text). */
export function deploymentFetch(platform: TestPlatform, deploymentId: string) {
  return (route: string, init: RequestInit = {}) =>
    fetch(`${platform.gatewayUrl}/deployments/${deploymentId}${route}`, {
      ...init,
      headers: { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId, 'content-type': 'application/json', ...init.headers },
    });
}

/**
 * One more agent server on the platform's agent server's database, with the same deployment files: serving a
 * deployment of its own (a new id, or `env.DEPLOYMENT_ID`), whose key it gets; `deploymentFor` routes to it.
 */
export async function startReplica(platform: TestPlatform, env: Record<string, string> = {}): Promise<RunningService> {
  const deployment = testDeploymentEnv(env.DEPLOYMENT_ID);
  const server = await startAgentServer(
    loadAgentServerConfig({
      HOST: '127.0.0.1',
      PORT: '0',
      ...deployment,
      DATA_DIR: 'memory://',
      DATABASE_URL: platform.databases['agent-server'].url,
      LANGGRAPH_CONFIG_PATH: TEST_LANGGRAPH_CONFIG,
      LOG_LEVEL: 'silent',
      ...FAST_RUN_SETTINGS,
      ...env,
    }),
    silentLogger,
  );
  serving(platform, server.url, deployment.DEPLOYMENT_ID);
  return server;
}

/** A deployment routed to `upstreamUrl`, and an SDK client for it. */
export async function deploymentFor(platform: TestPlatform, upstreamUrl: string): Promise<{ id: string; client: Client }> {
  const id = await registerDeployment(platform, { upstreamUrl });
  return { id, client: deploymentClient(platform, id) };
}

/** Polls `read` every 50 ms until `done` holds for its value, or fails after `timeoutMs`. */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export const userMessage = (content: string) => ({ messages: [{ role: 'user', content }] });

/** The contents of a state's messages, in order. */
export const contents = (values: unknown) => ((values as { messages?: { content: unknown }[] }).messages ?? []).map((m) => m.content);

export const slowConfig = (delayMs: number) => ({ configurable: { delay_ms: delayMs } });

/** One SSE event as the SDK yields it. */
export type StreamChunk = { event: string; data: unknown; id?: string };

/** Reads a stream to its end. */
export async function collect(stream: AsyncIterable<StreamChunk>): Promise<StreamChunk[]> {
  const chunks: StreamChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}
