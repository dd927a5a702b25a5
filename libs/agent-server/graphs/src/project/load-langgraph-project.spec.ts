import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MemorySaver } from '@langchain/langgraph';
import { InputError } from '@platform/errors';
import { createGraphRegistry } from '../graph-registry';
import { parseGraphSpec } from './graph-spec';
import { loadLangGraphProject } from './load-langgraph-project';
import { missingEnvFileNote } from './project-env';

const fixture = path.join(__dirname, 'testing', 'project', 'langgraph.json');

describe('parseGraphSpec', () => {
  it.each([
    ['./src/agent.ts:graph', { file: './src/agent.ts', exportName: 'graph' }],
    ['./src/agent.ts', { file: './src/agent.ts', exportName: 'default' }],
    ['C:\\work\\agent.ts:make', { file: 'C:\\work\\agent.ts', exportName: 'make' }],
    ['C:\\work\\agent.ts', { file: 'C:\\work\\agent.ts', exportName: 'default' }],
  ])('%s', (spec, expected) => {
    expect(parseGraphSpec(spec)).toEqual({ ...expected, description: undefined });
  });

  it('takes the description of the object form', () => {
    expect(parseGraphSpec({ path: './a.ts:g', description: 'An agent' })).toEqual({ file: './a.ts', exportName: 'g', description: 'An agent' });
  });
});

describe('loadLangGraphProject', () => {
  const saved = { ...process.env };
  afterEach(() => {
    for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
    Object.assign(process.env, saved);
  });

  it('imports every export form, in langgraph.json order, after applying the env', async () => {
    process.env.FIXTURE_PRESET = 'set by the deployment';

    const project = await loadLangGraphProject(fixture);

    expect(project).toMatchObject({ configPath: fixture, dir: path.dirname(fixture), defaults: {}, warnings: [] });
    expect(Object.keys(project.graphs)).toEqual(['compiled', 'builder', 'promised', 'factory', 'default']);
    expect(project.graphs.factory.description).toBe('Built for each run from its config');
    expect(project.env).toEqual({ FIXTURE_GREETING: 'hello', FIXTURE_ATTEMPTS: '3', FIXTURE_PRESET: 'from langgraph.json' });
    // The deployment's own variables win over the repository's.
    expect(process.env).toMatchObject({ FIXTURE_GREETING: 'hello', FIXTURE_ATTEMPTS: '3', FIXTURE_PRESET: 'set by the deployment' });

    const registry = createGraphRegistry({ graphs: project.graphs, checkpointer: new MemorySaver() });
    const answers: Record<string, unknown> = {};
    for (const graphId of registry.ids()) {
      const config = { configurable: { thread_id: graphId, user: 'ada' } };
      const graph = await registry.get(graphId, config);
      answers[graphId] = (await graph.invoke({ messages: [{ role: 'user', content: 'hi' }] }, config)).messages.at(-1).content;
    }
    expect(answers).toEqual({
      compiled: 'hello from compiled',
      builder: 'hello from builder',
      promised: 'hello from promised',
      factory: 'hello from factory for ada',
      default: 'default export',
    });
  });

  it('reads system-assistant defaults from LANGGRAPH_CONFIG, the platform one winning over the project one', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'langgraph-defaults-'));
    try {
      writeFileSync(
        path.join(dir, 'langgraph.json'),
        JSON.stringify({
          graphs: { compiled: `${path.dirname(fixture)}/graphs.ts:compiled` },
          env: { LANGGRAPH_CONFIG: JSON.stringify({ compiled: { configurable: { model: 'small' } } }) },
        }),
      );
      const fromProject = await loadLangGraphProject(path.join(dir, 'langgraph.json'));
      expect(fromProject.defaults).toEqual({ compiled: { config: { configurable: { model: 'small' } } } });

      const platformConfig = JSON.stringify({ compiled: { recursion_limit: 5, context: { model: 'large' } }, ghost: {} });
      const fromPlatform = await loadLangGraphProject(path.join(dir, 'langgraph.json'), { langgraphConfig: platformConfig });
      expect(fromPlatform.defaults).toEqual({ compiled: { config: { recursion_limit: 5 }, context: { model: 'large' } }, ghost: { config: {} } });
      expect(fromPlatform.warnings).toEqual(["LANGGRAPH_CONFIG names graph 'ghost', which langgraph.json does not define"]);

      await expect(loadLangGraphProject(path.join(dir, 'langgraph.json'), { langgraphConfig: '{nope' })).rejects.toThrow(
        /^LANGGRAPH_CONFIG is not valid JSON/,
      );
      await expect(loadLangGraphProject(path.join(dir, 'langgraph.json'), { langgraphConfig: '{"compiled": 3}' })).rejects.toThrow(
        'LANGGRAPH_CONFIG is invalid: compiled:',
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  describe('a broken project is an InputError naming the problem', () => {
    let dir: string;
    beforeEach(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'langgraph-broken-'));
    });
    afterEach(() => rmSync(dir, { recursive: true, force: true }));

    const project = (config: unknown, files: Record<string, string> = {}) => {
      writeFileSync(path.join(dir, 'langgraph.json'), typeof config === 'string' ? config : JSON.stringify(config));
      for (const [name, content] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
        writeFileSync(path.join(dir, name), content);
      }
      return loadLangGraphProject(path.join(dir, 'langgraph.json'));
    };

    it.each([
      ['no langgraph.json', null, /^langgraph.json not found at /],
      ['not JSON', '{"graphs": ', /^langgraph.json is not valid JSON: /],
      ['no graphs', { env: {} }, /^langgraph.json is invalid: graphs: /],
      ['an empty graphs object', { graphs: {} }, 'langgraph.json is invalid: graphs: must define at least one graph'],
      ['a graph given as a number', { graphs: { agent: 3 } }, /^langgraph.json is invalid: graphs.agent: /],
      ['an empty graph path', { graphs: { agent: ' ' } }, 'graphs.agent: must name a file, e.g. "./src/agent.ts:graph"'],
      ['env as a list', { graphs: { agent: './a.ts:g' }, env: ['A=1'] }, /^langgraph.json is invalid: env: /],
      ['a missing graph file', { graphs: { agent: './src/missing.ts:graph' } }, "Graph 'agent': file ./src/missing.ts not found"],
    ])('%s', async (_case, config, message) => {
      const load = config === null ? loadLangGraphProject(path.join(dir, 'langgraph.json')) : project(config);
      const error = await load.catch((err: unknown) => err);
      expect(error).toBeInstanceOf(InputError);
      expect((error as Error).message).toMatch(message);
    });

    it('a missing export, listing the ones there are', async () => {
      const load = project({ graphs: { agent: './graph.ts:graph' } }, { 'graph.ts': 'export const agent = 1;\nexport const other = 2;\n' });
      await expect(load).rejects.toThrow("Graph 'agent': ./graph.ts has no export 'graph' (exports: agent, other)");
    });

    it('an export that is not a graph', async () => {
      const load = project({ graphs: { agent: './graph.ts:graph' } }, { 'graph.ts': 'export const graph = { name: "agent" };\n' });
      await expect(load).rejects.toThrow("Graph 'agent': export 'graph' of ./graph.ts is not a graph, a graph builder, a Promise or a factory");
    });

    it('a module that fails while loading', async () => {
      const load = project({ graphs: { agent: './graph.ts:graph' } }, { 'graph.ts': 'throw new Error("OPENAI_API_KEY is missing");\n' });
      await expect(load).rejects.toThrow("Graph 'agent': cannot load ./graph.ts: OPENAI_API_KEY is missing");
    });

    it('but not a missing .env file (usually git-ignored, or left out by deploy): a warning in dev, a note in a deployment', async () => {
      const loaded = await project(
        { graphs: { agent: './graph.ts:graph' }, env: '.env' },
        { 'graph.ts': 'export const graph = (config: unknown) => { throw new Error(String(config)); };\n' },
      );
      expect(loaded.env).toEqual({});
      expect(loaded.warnings).toEqual([]);
      expect(loaded.missingEnvFile).toBe('.env');
      expect(missingEnvFileNote('.env', true)).toEqual({ level: 'warn', message: "env file .env not found; using the deployment's variables only" });
      expect(missingEnvFileNote('.env', false).level).toBe('info');
    });
  });
});
