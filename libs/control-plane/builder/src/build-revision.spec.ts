import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// eslint-disable-next-line @nx/enforce-module-boundaries -- test-only servers and fixtures, in a spec
import { createGitRepo, startGitHttpServer, type GitRepo } from '@platform/control-plane-testing';
import { BuildError } from './build-error';
import { Builder } from './build-revision';

jest.setTimeout(120_000);

const platformRoot = path.resolve(__dirname, '../../../..');
const GRAPH = `export const graph = { compile() { return {}; } };\n`;
const config = (graphs: Record<string, unknown> = { agent: './src/agent.ts:graph' }) => JSON.stringify({ graphs, dependencies: ['.'] });
const providedOnly = JSON.stringify({ name: 'a', dependencies: { '@langchain/langgraph': '^1.0.0', zod: '>=4.0.0' } });

describe('Builder', () => {
  let work: string;
  let repo: GitRepo;
  const builder = new Builder({ platformRoot, timeoutMs: 60_000, defaultInstallCommand: 'npm install --no-audit --no-fund --offline' });
  const build = (overrides: Partial<Parameters<Builder['build']>[0]> = {}) =>
    builder.build({ repoUrl: repo.url, ref: 'main', configPath: 'langgraph.json', dir: path.join(work, 'out'), signal: new AbortController().signal, ...overrides });

  beforeEach(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-build-'));
    repo = createGitRepo({ 'langgraph.json': config(), 'src/agent.ts': GRAPH, 'package.json': providedOnly });
  });
  afterEach(() => {
    repo.remove();
    fs.rmSync(work, { recursive: true, force: true });
  });

  it('checks out a branch, records its commit and skips the install when the platform provides every dependency', async () => {
    const sha = repo.commit({ 'README.md': 'x' });
    const result = await build();
    expect(result).toMatchObject({ commitSha: sha, graphs: ['agent'], installed: false, installReason: 'every dependency is provided by the platform' });
    expect(result.configPath).toBe(path.join(work, 'out', 'langgraph.json'));
    expect(fs.existsSync(path.join(work, 'out', 'node_modules'))).toBe(false);
    const platformVersion = (name: string) => JSON.parse(fs.readFileSync(path.join(platformRoot, 'node_modules', name, 'package.json'), 'utf8')).version;
    expect(result.packages).toMatchObject({ '@langchain/langgraph': `${platformVersion('@langchain/langgraph')} (platform)` });
  });

  it('checks out a tag, or a pinned commit instead of the branch tip', async () => {
    const first = repo.commit({ 'a.txt': '1' });
    repo.tag('v1');
    const second = repo.commit({ 'a.txt': '2' });
    expect((await build({ ref: 'refs/tags/v1' })).commitSha).toBe(first);
    expect((await build({ ref: 'main' })).commitSha).toBe(second);
    expect((await build({ ref: 'main', commitSha: first })).commitSha).toBe(first);
  });

  it('runs npm install when a dependency is not provided by the platform', async () => {
    // Only a local package: `npm install --offline` must not depend on what this machine's npm cache holds.
    repo.commit({
      'package.json': JSON.stringify({ name: 'a', dependencies: { 'local-helper': 'file:./vendor/local-helper' } }),
      'vendor/local-helper/package.json': JSON.stringify({ name: 'local-helper', version: '1.0.0', main: 'index.js' }),
      'vendor/local-helper/index.js': 'module.exports = 42;\n',
    });
    const result = await build();
    expect(result.installed).toBe(true);
    expect(result.installReason).toContain('local-helper@file:./vendor/local-helper');
    expect(fs.existsSync(path.join(work, 'out', 'node_modules', 'local-helper', 'index.js'))).toBe(true);
  });

  it("installs with the project's lockfile: package-lock.json → npm ci", async () => {
    const lock = {
      name: 'a',
      lockfileVersion: 3,
      requires: true,
      packages: {
        '': { name: 'a', dependencies: { 'local-helper': 'file:./vendor/local-helper' } },
        'node_modules/local-helper': { resolved: 'vendor/local-helper', link: true },
        'vendor/local-helper': { version: '1.0.0' },
      },
    };
    repo.commit({
      'package.json': JSON.stringify({ name: 'a', dependencies: { 'local-helper': 'file:./vendor/local-helper' } }),
      'package-lock.json': JSON.stringify(lock),
      'vendor/local-helper/package.json': JSON.stringify({ name: 'local-helper', version: '1.0.0', main: 'index.js' }),
      'vendor/local-helper/index.js': 'module.exports = 42;\n',
    });
    const logged: string[] = [];
    const result = await build({ log: (text) => logged.push(text) });
    expect(result).toMatchObject({ installed: true, installCommand: 'npm ci --no-audit --no-fund', installReason: 'package-lock.json found' });
    expect(logged.join('')).toContain('Install: package-lock.json found\n$ npm ci --no-audit --no-fund\n');
    expect(fs.existsSync(path.join(work, 'out', 'node_modules', 'local-helper', 'index.js'))).toBe(true);
  });

  it('fails a project whose LangGraph.js packages are outside the supported ranges, naming package, version and range', async () => {
    repo.commit({
      'package.json': JSON.stringify({ name: 'a', dependencies: { '@langchain/langgraph': 'file:./vendor/langgraph' } }),
      'vendor/langgraph/package.json': JSON.stringify({ name: '@langchain/langgraph', version: '0.2.74' }),
    });
    await expect(build()).rejects.toThrow(
      new BuildError('Unsupported LangGraph.js version: @langchain/langgraph 0.2.74 (supported: ^1.3.6). Install a supported version (package.json and its lockfile).'),
    );
  });

  it('runs install_command and build_command when given, and fails with their output', async () => {
    const ok = await build({ installCommand: 'echo installed > installed.txt', buildCommand: 'test -f installed.txt && echo built > built.txt' });
    expect(ok.installed).toBe(true);
    expect(fs.readFileSync(path.join(work, 'out', 'built.txt'), 'utf8')).toBe('built\n');
    await expect(build({ buildCommand: 'echo compile error: missing semicolon >&2; exit 3' })).rejects.toThrow(
      /build_command "echo compile error.*" failed \(exit 3\).*compile error: missing semicolon/s,
    );
  });

  it.each([
    [{ 'langgraph.json': null }, /langgraph.json not found in the repository/],
    [{ 'langgraph.json': '{"graphs": ' }, /langgraph.json is not valid JSON/],
    [{ 'langgraph.json': '{"graphs": {}}' }, /"graphs" must map at least one graph id/],
    [{ 'langgraph.json': config({ agent: './src/missing.ts:graph' }) }, /graph "agent" file .\/src\/missing.ts not found/],
    [{ 'langgraph.json': config({ agent: '../../etc/passwd:graph' }) }, /points outside the repository/],
    [{ 'langgraph.json': config({ agent: './src/agent.ts:not-a-name' }) }, /export "not-a-name" is not a valid export name/],
    [{ 'langgraph.json': JSON.stringify({ graphs: { agent: './src/agent.ts:graph' }, dependencies: '.' }) }, /"dependencies" must be a list/],
  ])('fails a bad configuration with the reason (%#)', async (files, message) => {
    repo.commit(files);
    await expect(build()).rejects.toThrow(BuildError);
    await expect(build()).rejects.toThrow(message);
  });

  it('fails an unknown ref, an unreachable repository and an unsafe ref', async () => {
    await expect(build({ ref: 'no-such-branch' })).rejects.toThrow(/Fetching no-such-branch from .* failed/);
    await expect(build({ repoUrl: `file://${work}/nothing` })).rejects.toThrow(BuildError);
    await expect(build({ ref: '--upload-pack=touch /tmp/x' })).rejects.toThrow(/not a valid git reference/);
  });

  it('stops at once when aborted', async () => {
    const controller = new AbortController();
    const running = build({ installCommand: 'sleep 30', signal: controller.signal });
    setTimeout(() => controller.abort(), 500);
    const started = Date.now();
    await expect(running).rejects.toThrow('Build aborted');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('clones a private repository over HTTP with the integration token, and fails without it', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-git-root-'));
    fs.renameSync(repo.dir, path.join(root, 'private.git'));
    const server = await startGitHttpServer(root, { token: 'gho_token123' });
    try {
      const url = server.url('private.git');
      await expect(build({ repoUrl: url })).rejects.toThrow(/Fetching main from .* failed/);
      const result = await build({ repoUrl: url, token: 'gho_token123' });
      expect(result.graphs).toEqual(['agent']);
      expect(server.authorizations).toContain(`Basic ${Buffer.from('x-access-token:gho_token123').toString('base64')}`);
      expect(fs.readFileSync(path.join(work, 'out', '.git', 'config'), 'utf8')).not.toContain('gho_token123');
    } finally {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});
