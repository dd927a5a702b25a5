import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Client } from '@langchain/langgraph-sdk';
import { createLogger } from '@platform/logging';
import { startTestAgentServer, type TestAgentServer } from './http/agent-server.testing';

// The introspection fixture: an Annotation graph (schemas only from its TypeScript types) beside zod ones.
const PROJECT = path.resolve(__dirname, '../../../libs/agent-server/graphs/src/introspection/testing/project/langgraph.json');

// The compiler reads LangGraph's declarations: seconds on a quiet machine, minutes on a loaded one.
jest.setTimeout(600_000);

/** Log lines as objects, as the server writes them. */
function capturedLogger() {
  const lines: { msg?: string; graphs?: string[] }[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim()) lines.push(JSON.parse(line) as { msg?: string });
      done();
    },
  });
  return { logger: createLogger({ service: 'agent-server', level: 'info', destination }), lines };
}

async function until(check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("a server reads its graphs' TypeScript schemas as it starts, not on the first request", () => {
  let running: TestAgentServer | undefined;
  let cacheDir: string;
  beforeEach(() => {
    cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'schemas-at-start-'));
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
    fs.rmSync(cacheDir, { recursive: true, force: true });
  });

  const start = async (atStart: boolean) => {
    const { logger, lines } = capturedLogger();
    running = await startTestAgentServer({
      langgraphConfigPath: PROJECT,
      logger,
      env: { GRAPH_SCHEMA_CACHE_DIR: cacheDir, LANGGRAPH_SCHEMAS_AT_START: String(atStart), LANGGRAPH_SCHEMA_RESOLVE_TIMEOUT_MS: '500000' },
    });
    const sdk = new Client({ apiUrl: running.server.url, apiKey: null, defaultHeaders: running.headers, callerOptions: { maxRetries: 0 } });
    const extractions = () => lines.filter((line) => line.msg === 'graph schemas extracted from TypeScript').length;
    return { sdk, lines, extractions };
  };

  it('in the background once it listens: the first /schemas is served from what it read', async () => {
    const { sdk, lines, extractions } = await start(true);
    await until(() => lines.some((line) => line.msg === 'graph schemas ready'), 540_000);
    expect(lines.find((line) => line.msg === 'graph schemas ready')?.graphs).toContain('annotation');
    expect(extractions()).toBe(1);
    const schemas = await sdk.assistants.getSchemas('annotation');
    expect(Object.keys((schemas.state_schema as { properties: object }).properties)).toEqual(['ticket', 'messages']);
    expect(extractions()).toBe(1);
  });

  it('with LANGGRAPH_SCHEMAS_AT_START=false, on the first request that needs them', async () => {
    const { sdk, lines, extractions } = await start(false);
    expect(extractions()).toBe(0);
    await sdk.assistants.getSchemas('annotation');
    expect(extractions()).toBe(1);
    expect(lines.some((line) => line.msg === 'graph schemas ready')).toBe(false);
  });
});
