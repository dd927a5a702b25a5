import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- test-only git helpers, in a spec
import { createGitRepo, readTree, type GitRepo } from '@platform/control-plane-testing';
import { Builder, type BuildResult } from './build-revision';

// Real installs from the npm registry, with the package manager each project's lockfile names. The projects are
// the version fixtures in tools/conformance/projects (shared with the conformance harness).
jest.setTimeout(240_000);

const platformRoot = path.resolve(__dirname, '../../../..');
const PROJECTS = path.join(platformRoot, 'tools/conformance/projects');
const PNPM_LOCK = `lockfileVersion: '9.0'

settings:
  autoInstallPeers: true
  excludeLinksFromLockfile: false

importers:

  .:
    dependencies:
      is-number:
        specifier: 7.0.0
        version: 7.0.0

packages:

  is-number@7.0.0:
    resolution: {integrity: sha512-41Cifkg6e8TylSpdtTpeLVMqvSBEVzTttHvERD741+pnZ8ANv0004MRL43QKPDlK9cGvNp6NZWZUBlbGXYxxng==}
    engines: {node: '>=0.12.0'}

snapshots:

  is-number@7.0.0: {}
`;

describe('Builder with real installs', () => {
  let work: string;
  const repos: GitRepo[] = [];
  const builder = new Builder({ platformRoot, timeoutMs: 180_000, defaultInstallCommand: 'npm install --no-audit --no-fund' });

  const build = async (files: Record<string, string>, options: { installCommand?: string } = {}): Promise<BuildResult & { log: string }> => {
    const repo = createGitRepo(files);
    repos.push(repo);
    let log = '';
    const dir = path.join(work, `out-${repos.length}`);
    try {
      const result = await builder.build({ repoUrl: repo.url, ref: 'main', configPath: 'langgraph.json', dir, signal: new AbortController().signal, log: (t) => (log += t), ...options });
      return { ...result, log };
    } catch (err) {
      throw Object.assign(err as Error, { log });
    }
  };
  const project = (name: string) => readTree(path.join(PROJECTS, name));

  beforeAll(() => (work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-build-real-'))));
  afterAll(() => {
    for (const repo of repos) repo.remove();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('installs a yarn project with yarn, where npm fails on its peer ranges and says why (the whole ERESOLVE block)', async () => {
    await expect(build(project('yarn-peer-conflict'), { installCommand: 'npm install --no-audit --no-fund' })).rejects.toThrow(
      /^install_command "npm install --no-audit --no-fund" failed \(exit 1\):\nnpm error code ERESOLVE\n(npm error.*\n)*npm error Found: zod@4\.6\.7\n(npm error.*\n)*npm error peer zod@"\^3\.24\.1" from zod-to-json-schema@3\.24\.6\n/,
    );
    const result = await build(project('yarn-peer-conflict'));
    expect(result).toMatchObject({ installed: true, installCommand: 'npx --yes yarn@1.22.22 install --non-interactive', installReason: 'yarn.lock found' });
    expect(result.log).toMatch(/\$ npx --yes yarn@1\.22\.22 install --non-interactive\n[\s\S]*yarn install v1\.22\.22/);
    expect(result.log).toContain('has incorrect peer dependency "zod@^3.24.1"');
    expect(result.packages).toMatchObject({ '@langchain/core': '1.4.0 (project)', '@langchain/langgraph': '1.7.3 (project)' });
    expect(fs.existsSync(path.join(result.checkoutDir, 'node_modules', 'zod-to-json-schema', 'package.json'))).toBe(true);
  });

  it('installs a pnpm project with pnpm (frozen lockfile)', async () => {
    const result = await build({
      'langgraph.json': JSON.stringify({ graphs: { agent: './agent.ts:graph' } }),
      'agent.ts': 'export const graph = {};\n',
      'package.json': JSON.stringify({ name: 'p', private: true, dependencies: { 'is-number': '7.0.0' } }),
      'pnpm-lock.yaml': PNPM_LOCK,
    });
    expect(result).toMatchObject({ installCommand: 'npx --yes pnpm@9 install --frozen-lockfile', installReason: 'pnpm-lock.yaml found' });
    expect(result.log).toMatch(/Done in .* using pnpm v9\./);
    expect(fs.realpathSync(path.join(result.checkoutDir, 'node_modules', 'is-number'))).toContain(`${path.sep}.pnpm${path.sep}is-number@7.0.0`);
  });

  it('installs the project pinned to the oldest supported versions with npm ci, and reports them as its own', async () => {
    const result = await build(project('langgraph-oldest'));
    expect(result).toMatchObject({ installCommand: 'npm ci --no-audit --no-fund', installReason: 'package-lock.json found', graphs: ['agent', 'approval', 'counter', 'tla'] });
    expect(result.packages).toMatchObject({
      '@langchain/core': '1.1.48 (project)',
      '@langchain/langgraph': '1.3.6 (project)',
      '@langchain/langgraph-checkpoint': '1.1.0 (project)',
    });
    expect(result.log).toContain('LangGraph.js packages: @langchain/langgraph 1.3.6 (project), @langchain/core 1.1.48 (project)');
  });

  it('fails a LangGraph.js 0.2 project, naming each package outside the supported ranges', async () => {
    const failure = build(project('langgraph-0.2'));
    await expect(failure).rejects.toThrow(
      'Unsupported LangGraph.js versions: @langchain/core 0.3.80 (supported: ^1.1.48), @langchain/langgraph 0.2.74 (supported: ^1.3.6), ' +
        '@langchain/langgraph-checkpoint 0.0.18 (supported: ^1.1.0). Install a supported version (package.json and its lockfile).',
    );
    const { log } = (await failure.catch((err: unknown) => err)) as { log: string };
    expect(log).toContain('$ npm ci --no-audit --no-fund');
  });
});
