import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { startTestAgentServer, type TestAgentServer } from './agent-server.testing';

// PGlite (no DATABASE_URL) starts slowly, and the graphs are loaded from TypeScript.
jest.setTimeout(90_000);

const FIXTURES = path.resolve(__dirname, '../../e2e/fixtures');

/** What the SDK finds of the platform inside a deployment (e2e/fixtures/http-graphs.ts): getLogger, a Client without URL. */
describe('the SDK inside a deployment: getLogger() and a Client without apiUrl', () => {
  let running: TestAgentServer;
  const sdk = () => new Client({ apiUrl: running.server.url, apiKey: null, defaultHeaders: running.headers, callerOptions: { maxRetries: 0 } });

  beforeAll(async () => {
    running = await startTestAgentServer({ langgraphConfigPath: path.join(FIXTURES, 'http-langgraph.json') });
  });
  afterAll(() => running?.stop());

  it('loads a graph that takes getLogger() at import, and its Client without a URL reaches this same server', async () => {
    const thread = await sdk().threads.create();
    expect(await sdk().runs.wait(thread.thread_id, 'self', { input: {} })).toEqual({ graphs: ['echo', 'self'], thread: thread.thread_id });
  });
});
