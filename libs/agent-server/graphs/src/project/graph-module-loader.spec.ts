import { execFile } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';

// Graph modules load through Node's own module loader (Jest substitutes its own), so these tests run the
// loader the way production does: an esbuild bundle on plain Node, against deployments in the system temp
// directory that have no node_modules of their own.
jest.setTimeout(120_000);

const repoRoot = path.resolve(__dirname, '../../../../..');
const run = promisify(execFile);

const respondNode = (moduleStyle: string, replyImport: string) => `
import { AIMessage } from '@langchain/core/messages';
import { MessagesAnnotation, StateGraph } from '@langchain/langgraph';
import { reply } from '${replyImport}';
export const graph = new StateGraph(MessagesAnnotation)
  .addNode('respond', () => ({ messages: [new AIMessage(reply('${moduleStyle}'))] }))
  .addEdge('__start__', 'respond')
  .compile();
`;
// Read at import time: the project's env must be in place before graph modules load.
const replyModule = `const greeting: string = process.env.GREETING ?? 'unset';
export const reply = (style: string): string => \`\${style}: \${greeting}\`;
`;

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
}

interface GraphRun {
  graphId?: string;
  values?: { messages: { type: string; content: string }[] };
  error?: string;
  message?: string;
}

describe('loading graph modules on plain Node (no node_modules in the deployment)', () => {
  let work: string;
  let bundle: string;

  // `asPlatform`: started as the platform starts (from its own folder, tsx pointed at the platform's tsconfig).
  async function loadAndInvoke(configPath: string, { asPlatform = false } = {}): Promise<GraphRun[]> {
    // No provider keys: the example agent then uses its scripted model.
    const { GREETING: _unset, OPENAI_API_KEY: _openai, ANTHROPIC_API_KEY: _anthropic, TSX_TSCONFIG_PATH: _tsconfig, ...env } = process.env;
    if (asPlatform) env.TSX_TSCONFIG_PATH = path.join(repoRoot, 'tsconfig.base.json');
    const cwd = asPlatform ? repoRoot : path.dirname(configPath);
    const { stdout } = await run(process.execPath, [bundle, configPath], { cwd, env }).catch(
      (err: { stdout?: string }) => ({ stdout: err.stdout ?? '' }),
    );
    return stdout.trim().split('\n').filter(Boolean).map((line) => JSON.parse(line) as GraphRun);
  }

  const lastMessage = (runResult: GraphRun) => runResult.values?.messages.at(-1);

  beforeAll(async () => {
    work = mkdtempSync(path.join(tmpdir(), 'graph-loader-'));
    // The bundle sits in the repository so that the platform's own packages resolve from it, as in production.
    const outDir = mkdtempSync(path.join(repoRoot, 'tmp', 'graph-loader-'));
    bundle = path.join(outDir, 'load-project.cjs');
    await build({
      entryPoints: [path.join(__dirname, 'testing', 'load-project.testing.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      packages: 'external',
      outfile: bundle,
      logLevel: 'silent',
    });
  });
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
    if (bundle) rmSync(path.dirname(bundle), { recursive: true, force: true });
  });

  it('loads CommonJS-style TypeScript and applies the project env before importing it', async () => {
    const dir = path.join(work, 'cjs');
    writeFiles(dir, {
      'langgraph.json': JSON.stringify({ graphs: { agent: './src/graph.ts:graph' }, env: { GREETING: 'from langgraph.json' } }),
      'src/graph.ts': respondNode('cjs', './reply'),
      'src/reply.ts': replyModule,
    });

    const [agent] = await loadAndInvoke(path.join(dir, 'langgraph.json'));

    expect(agent.error).toBeUndefined();
    expect(agent.graphId).toBe('agent');
    expect(lastMessage(agent)).toMatchObject({ type: 'ai', content: 'cjs: from langgraph.json' });
  });

  it('loads ESM TypeScript (.js specifiers), ESM JavaScript and top-level-await modules of a "type": "module" project', async () => {
    const dir = path.join(work, 'esm');
    writeFiles(dir, {
      'package.json': JSON.stringify({ type: 'module' }),
      '.env': 'GREETING=from .env\n',
      'langgraph.json': JSON.stringify({
        graphs: { ts: './src/graph.ts:graph', js: { path: './src/plain.js:graph' }, awaited: './src/awaited.mts:graph' },
        env: '.env',
      }),
      'src/graph.ts': respondNode('esm', './reply.js'),
      'src/reply.ts': replyModule,
      'src/plain.js': respondNode('js', './reply.js').replace('(): string', '()'),
      'src/awaited.mts': `${respondNode('awaited', './reply.js')}\nexport const ready = await Promise.resolve(true);\n`,
    });

    const runs = await loadAndInvoke(path.join(dir, 'langgraph.json'));

    expect(runs.map((r) => r.error ?? r.graphId)).toEqual(['ts', 'js', 'awaited']);
    expect(runs.map((r) => lastMessage(r)?.content)).toEqual(['esm: from .env', 'js: from .env', 'awaited: from .env']);
  });

  it("resolves the project's tsconfig paths aliases (through extends, CommonJS and ESM modules alike)", async () => {
    const dir = path.join(work, 'aliases');
    writeFiles(dir, {
      'tsconfig.base.json': JSON.stringify({ compilerOptions: { paths: { '@/*': ['./src/*'], '#reply': ['./src/agent/reply.ts'] } } }),
      // Comments and trailing commas, as tsconfig files allow.
      'tsconfig.json': '{\n  // the project\'s own config\n  "extends": "./tsconfig.base.json",\n  "compilerOptions": { "strict": true, },\n}\n',
      'langgraph.json': JSON.stringify({ graphs: { cjs: './src/agent/graph.ts:graph', exact: './src/agent/exact.ts:graph', awaited: './src/agent/awaited.mts:graph' }, env: { GREETING: 'aliased' } }),
      'src/agent/graph.ts': respondNode('cjs', '@/agent/reply'),
      'src/agent/exact.ts': respondNode('exact', '#reply'),
      'src/agent/reply.ts': replyModule,
      'src/agent/awaited.mts': `${respondNode('awaited', '@/agent/reply.js')}\nexport const ready = await Promise.resolve(true);\n`,
    });

    const runs = await loadAndInvoke(path.join(dir, 'langgraph.json'), { asPlatform: true });

    expect(runs.map((r) => r.error ?? r.graphId)).toEqual(['cjs', 'exact', 'awaited']);
    expect(runs.map((r) => r.message ?? lastMessage(r)?.content)).toEqual(['cjs: aliased', 'exact: aliased', 'awaited: aliased']);
  });

  it('runs a copy of examples/react-agent, as the control plane clones it', async () => {
    const dir = path.join(work, 'react-agent');
    const example = path.join(repoRoot, 'examples', 'react-agent');
    cpSync(example, dir, { recursive: true, filter: (source) => !/node_modules|\.spec\.ts$/.test(source) });

    const [agent] = await loadAndInvoke(path.join(dir, 'langgraph.json'));

    expect(agent.error).toBeUndefined();
    const messages = agent.values?.messages ?? [];
    expect(messages.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai']);
    expect(messages[3].content).toMatch(/^Here is the current weather: It is \d+°C and .+ in San Francisco\.$/);
  });

  it('reports a graph whose packages cannot be resolved anywhere as a failed load naming it', async () => {
    const dir = path.join(work, 'missing-package');
    writeFiles(dir, {
      'langgraph.json': JSON.stringify({ graphs: { agent: './graph.ts:graph' } }),
      'graph.ts': "import { nothing } from 'no-such-package-anywhere';\nexport const graph = nothing;\n",
    });

    const [result] = await loadAndInvoke(path.join(dir, 'langgraph.json'));

    expect(result).toMatchObject({ error: 'InputError' });
    expect(result.message).toContain("Graph 'agent': cannot load ./graph.ts");
    expect(result.message).toContain('no-such-package-anywhere');
  });
});
