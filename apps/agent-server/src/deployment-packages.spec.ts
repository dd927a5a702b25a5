import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

// The server started on its own (`tsx apps/agent-server/src/main.ts`, as the local driver and `npx tsx` start it)
// checks the deployment's LangGraph.js versions before it loads anything, as the build does.
describe('agent server start with the deployment’s own LangGraph.js packages', () => {
  let project: string;
  beforeEach(() => {
    project = fs.mkdtempSync(path.join(os.tmpdir(), 'as-versions-'));
    fs.writeFileSync(path.join(project, 'langgraph.json'), JSON.stringify({ graphs: { agent: './agent.js:graph' } }));
    fs.writeFileSync(path.join(project, 'agent.js'), 'exports.graph = {};\n');
    const langgraph = path.join(project, 'node_modules', '@langchain', 'langgraph');
    fs.mkdirSync(langgraph, { recursive: true });
    fs.writeFileSync(path.join(langgraph, 'package.json'), JSON.stringify({ name: '@langchain/langgraph', version: '0.2.74' }));
  });
  afterEach(() => fs.rmSync(project, { recursive: true, force: true }));

  it('refuses versions outside the supported ranges, naming package, version and range', () => {
    const started = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['apps/agent-server/src/main.ts'], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, DEPLOYMENT_KEY: 'x'.repeat(32), DATA_DIR: 'memory://', PORT: '0', LANGGRAPH_CONFIG_PATH: path.join(project, 'langgraph.json') },
    });
    expect(started.status).toBe(1);
    expect(started.stdout + started.stderr).toContain('Unsupported LangGraph.js version: @langchain/langgraph 0.2.74 (supported: ^1.3.6)');
  });
});

// main.ts opens (and may migrate) its database before it chooses the deployment's copies: nothing it imports up front
// may load a shared package (the server would refuse to start: "Shared packages were loaded before ...").
describe('what the agent server loads before it chooses the deployment’s packages', () => {
  it('holds none of the shared LangGraph.js packages', () => {
    const main = fs.readFileSync(path.join(__dirname, 'main.ts'), 'utf8');
    const imports = [...main.matchAll(/^import .* from '([^']+)';$/gm)].map(([, from]) => (from.startsWith('.') ? path.join(__dirname, from) : from));
    expect(imports.length).toBeGreaterThan(0);
    const script = `
      for (const from of ${JSON.stringify(imports)}) require(from);
      const names = Object.keys(require('@platform/langgraph-packages').SHARED_PACKAGES);
      const loaded = Object.keys(require.cache).filter((file) => names.some((name) => file.includes('/node_modules/' + name + '/')));
      console.log(JSON.stringify(loaded));`;
    const run = spawnSync(path.join(ROOT, 'node_modules/.bin/tsx'), ['-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout.trim().split('\n').at(-1) ?? 'null')).toEqual([]);
  });
});

