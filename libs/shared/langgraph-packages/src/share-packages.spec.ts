import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { packageTree, type PackageTree } from './package-tree.testing';

const TSX = path.resolve(__dirname, '../../../../node_modules/.bin/tsx');
const LIB = path.resolve(__dirname, 'index.ts');

// A fake @langchain/core with a CommonJS and an ESM build, each saying whose copy and which build it is.
function fakeCore(tree: PackageTree, dir: string, version: string, copy: string) {
  const exports = { '.': { import: './index.mjs', require: './index.cjs' }, './messages': { import: './index.mjs', require: './index.cjs' } };
  tree.install(
    dir,
    '@langchain/core',
    version,
    { 'index.cjs': `exports.copy = '${copy}'; exports.build = 'cjs'; exports.token = {};\n`, 'index.mjs': `export const copy = '${copy}'; export const build = 'esm'; export const token = {};\n` },
    { exports },
  );
}

/** Runs `body` (CommonJS TypeScript, in an async function) under tsx, as the Agent Server runs, and returns its JSON. */
function child(tree: PackageTree, body: string): Record<string, unknown> {
  const script = tree.path('script.ts');
  fs.writeFileSync(
    script,
    [
      "import path from 'node:path';",
      "import { pathToFileURL } from 'node:url';",
      `const lib = require(${JSON.stringify(LIB)});`,
      `const project = ${JSON.stringify(tree.path('project'))};`,
      `const platform = ${JSON.stringify(tree.path('platform'))};`,
      'const load = (file: string) => require(file);',
      'const importFile = (file: string) => import(pathToFileURL(file).href);',
      `(async () => { ${body} })().then((out) => console.log(JSON.stringify(out)), (err) => console.log(JSON.stringify({ error: String(err.message) })));`,
    ].join('\n'),
  );
  const output = execFileSync(TSX, [script], { cwd: tree.root, encoding: 'utf8', env: { PATH: process.env.PATH, HOME: process.env.HOME } });
  return JSON.parse(output.trim().split('\n').at(-1) as string) as Record<string, unknown>;
}

describe('shareDeploymentPackages (in a child process, under tsx)', () => {
  let tree: PackageTree;
  beforeEach(() => {
    tree = packageTree();
    fakeCore(tree, 'platform', '1.4.0', 'platform');
    fakeCore(tree, 'project', '1.1.48', 'project');
    // A platform package built on core (as @langchain/openai is), and the server's own modules.
    tree.install('platform', 'provider', '1.0.0', { 'index.cjs': "module.exports = require('@langchain/core/messages');\n" }, { main: 'index.cjs' });
    fs.writeFileSync(tree.path('platform', 'server.cjs'), "module.exports = require('@langchain/core');\n");
    fs.writeFileSync(tree.path('platform', 'server.mjs'), "export * from '@langchain/core';\n");
    // The deployment's graph modules, CommonJS and ESM.
    fs.writeFileSync(tree.path('project', 'graph.cjs'), "module.exports = require('@langchain/core');\n");
    fs.writeFileSync(tree.path('project', 'graph.mjs'), "export * from '@langchain/core/messages';\n");
  });
  afterEach(() => tree.remove());

  it("gives the server, the platform's packages and the graphs one instance: the project's CommonJS build", () => {
    const out = child(
      tree,
      `lib.shareDeploymentPackages(project, lib.resolveSharedPackages(project, platform));
       const loaded = {
         serverRequire: load(path.join(platform, 'server.cjs')),
         serverImport: await importFile(path.join(platform, 'server.mjs')),
         platformPackage: load(path.join(platform, 'node_modules', 'provider', 'index.cjs')),
         graphRequire: load(path.join(project, 'graph.cjs')),
         graphImport: await importFile(path.join(project, 'graph.mjs')),
       };
       const token = loaded.graphRequire.token;
       return Object.fromEntries(Object.entries(loaded).map(([k, m]) => [k, m.copy + '/' + m.build + (m.token === token ? '/same' : '/other')]));`,
    );
    expect(out).toEqual({
      serverRequire: 'project/cjs/same',
      serverImport: 'project/cjs/same',
      platformPackage: 'project/cjs/same',
      graphRequire: 'project/cjs/same',
      graphImport: 'project/cjs/same',
    });
  });

  it("keeps the platform's copy when the project has none, and still one instance for require and import", () => {
    fs.rmSync(tree.path('project', 'node_modules'), { recursive: true });
    fs.mkdirSync(tree.path('platform', 'project'), { recursive: true });
    fs.copyFileSync(tree.path('project', 'graph.mjs'), tree.path('platform', 'project', 'graph.mjs'));
    const out = child(
      tree,
      `const dir = path.join(platform, 'project');
       lib.shareDeploymentPackages(dir, lib.resolveSharedPackages(dir, platform));
       const server = load(path.join(platform, 'server.cjs'));
       const graph = await importFile(path.join(dir, 'graph.mjs'));
       return { server: server.copy + '/' + server.build, graph: graph.copy + '/' + graph.build, same: server.token === graph.token };`,
    );
    expect(out).toEqual({ server: 'platform/cjs', graph: 'platform/cjs', same: true });
  });

  it('refuses to share once the server has loaded a copy of its own', () => {
    const out = child(
      tree,
      `load(path.join(platform, 'server.cjs'));
       lib.shareDeploymentPackages(project, lib.resolveSharedPackages(project, platform));
       return { shared: true };`,
    );
    expect(out.error).toMatch(/^Shared packages were loaded before the deployment's copies were chosen: .*platform\/node_modules\/@langchain\/core\/index.cjs$/);
  });
});
