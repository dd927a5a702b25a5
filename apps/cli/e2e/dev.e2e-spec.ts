import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { descendants, freePort, processAlive } from '@platform/http-server';
import { runCli, scratchProject, type CliProcess } from './cli.e2e.testing';

// A graph whose one node waits before it answers: a run can be in flight while its file changes.
const SLOW_GRAPH = (version: string) => `import { Annotation, StateGraph } from '@langchain/langgraph';

export const VERSION = '${version}';
const State = Annotation.Root({ answer: Annotation<string>, waitMs: Annotation<number> });

export const graph = new StateGraph(State)
  .addNode('respond', async (state) => {
    await new Promise((resolve) => setTimeout(resolve, state.waitMs ?? 0));
    return { answer: VERSION + ':' + process.env.DEV_E2E_FROM_ENV_FILE };
  })
  .addEdge('__start__', 'respond')
  .compile();
`;

const lastMessage = (values: unknown) => {
  const messages = (values as { messages: { content: unknown }[] }).messages;
  return String(messages.at(-1)?.content);
};

describe('agent-platform dev', () => {
  let project: ReturnType<typeof scratchProject>;
  let cli: CliProcess;
  let client: Client;
  let apiUrl: string;

  beforeAll(async () => {
    project = scratchProject();
    fs.writeFileSync(path.join(project.dir, 'src', 'versioned.ts'), SLOW_GRAPH('v1'));
    const config = JSON.parse(fs.readFileSync(path.join(project.dir, 'langgraph.json'), 'utf8'));
    config.graphs.versioned = './src/versioned.ts:graph';
    fs.writeFileSync(path.join(project.dir, 'langgraph.json'), JSON.stringify(config, null, 2));
    fs.writeFileSync(path.join(project.dir, '.env'), 'DEV_E2E_FROM_ENV_FILE=read\n');
    const port = await freePort('127.0.0.1');
    // Started from the project's folder with no flags but the port, as a user would.
    cli = runCli(['dev', '--port', String(port)], { cwd: project.dir, env: { LOG_LEVEL: 'info', DATABASE_URL: '' } });
    apiUrl = (await cli.waitFor(/API:\s+(http:\/\/\S+)/))[1];
    client = new Client({ apiUrl });
  });

  afterAll(async () => {
    const code = await cli?.stop();
    project?.remove();
    expect(code).toBe(0);
  });

  it('prints where the API and its docs are, and keeps its database in the project', async () => {
    expect(apiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(cli.output()).toContain(`API Docs: ${apiUrl}/docs`);
    expect((await fetch(`${apiUrl}/docs`)).status).toBe(200);
    expect(fs.existsSync(path.join(project.dir, '.langgraph_api', 'agent-server'))).toBe(true);
  });

  it('answers the SDK with no key', async () => {
    const values = await client.runs.wait(null, 'agent', { input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] } });
    expect(lastMessage(values)).toMatch(/Here is the current weather: It is \d+°C/);
  });

  it('serves the next run with an edited node file, without a restart, while a run in flight finishes on the old code', async () => {
    const thread = await client.threads.create();
    const inFlight = await client.runs.create(thread.thread_id, 'versioned', { input: { waitMs: 4_000 } });
    await new Promise((resolve) => setTimeout(resolve, 500));

    const reloads = (cli.output().match(/graphs reloaded/g) ?? []).length;
    fs.writeFileSync(path.join(project.dir, 'src', 'versioned.ts'), SLOW_GRAPH('v2'));
    const tools = path.join(project.dir, 'src', 'tools.ts');
    fs.writeFileSync(tools, fs.readFileSync(tools, 'utf8').replace('`It is ', '`Edited forecast: '));
    await waitUntil(() => (cli.output().match(/graphs reloaded/g) ?? []).length > reloads);

    const next = await client.runs.wait(null, 'versioned', { input: { waitMs: 0 } });
    expect(next).toMatchObject({ answer: 'v2:read' });
    const weather = await client.runs.wait(null, 'agent', { input: { messages: [{ role: 'user', content: 'What is the weather in Paris?' }] } });
    expect(lastMessage(weather)).toMatch(/Here is the current weather: Edited forecast: \d+°C/);

    await client.runs.join(thread.thread_id, inFlight.run_id);
    expect((await client.threads.getState(thread.thread_id)).values).toMatchObject({ answer: 'v1:read' });
    expect((await client.runs.get(thread.thread_id, inFlight.run_id)).status).toBe('success');
  });

  it('keeps serving the last good graphs when an edit does not load', async () => {
    const failures = (cli.output().match(/reload failed/g) ?? []).length;
    fs.writeFileSync(path.join(project.dir, 'src', 'versioned.ts'), 'export const graph = ;\n');
    await waitUntil(() => (cli.output().match(/reload failed/g) ?? []).length > failures);
    expect(await client.runs.wait(null, 'versioned', { input: { waitMs: 0 } })).toMatchObject({ answer: 'v2:read' });
  });

  it('truncates what POST /internal/truncate names (dev mode only)', async () => {
    await client.threads.create();
    await client.assistants.create({ graphId: 'agent', name: 'mine' });
    const res = await fetch(`${apiUrl}/internal/truncate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ threads: true, runs: true, checkpointer: true, assistants: true }),
    });
    expect(res.status).toBe(200);
    expect(await client.threads.search()).toEqual([]);
    // The graphs' own assistants come back; the one made through the API is gone.
    expect((await client.assistants.search()).map((a) => a.name).sort()).toEqual(['agent', 'versioned']);

    const bad = await fetch(`${apiUrl}/internal/truncate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"threads":"yes"}' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0].loc).toEqual(['body', 'threads']);
  });

  it('refuses a second dev server on the same project, naming the first, before it opens the database', async () => {
    const second = runCli(['dev', '--port', String(await freePort('127.0.0.1'))], { cwd: project.dir, env: { DATABASE_URL: '' } });
    expect(await second.exited).toBe(1);
    expect(second.output()).toContain(`.langgraph_api is in use by another instance (pid ${cli.child.pid}, ${apiUrl}, agent-platform dev`);
    expect(second.output()).not.toContain('API:');
  });

  it('stops its Agent Server, and everything under it, before it exits', async () => {
    const tree = descendants(cli.child.pid as number);
    expect(tree.length).toBeGreaterThan(0);
    expect(await cli.stop()).toBe(0);
    expect(tree.filter(processAlive)).toEqual([]);
    expect(fs.existsSync(path.join(project.dir, '.langgraph_api', 'instance.lock'))).toBe(false);
  });
});

async function waitUntil(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
