import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ts from 'typescript';
import { SHARED_PACKAGES } from '@platform/langgraph-packages';

const ROOT = path.resolve(__dirname, '../../..');
const OLDEST = path.join(ROOT, 'tools/conformance/projects/langgraph-oldest');
const SOURCES = [path.join(ROOT, 'apps/agent-server/src'), path.join(ROOT, 'libs/agent-server')];
const NOT_SERVER_CODE = /(\.spec|\.integration-spec|\.e2e-spec|\.testing)\.ts$|\/(testing|e2e|conformance|generated)\//;

function serverFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : serverFiles(full);
    return full.endsWith('.ts') && !NOT_SERVER_CODE.test(full) ? [full] : [];
  });
}

/** `module → names` of the value imports (not `import type`) the server's code takes from the shared packages. */
function sharedImports(): Map<string, Set<string>> {
  const found = new Map<string, Set<string>>();
  const shared = Object.keys(SHARED_PACKAGES);
  for (const file of SOURCES.flatMap(serverFiles)) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest);
    for (const statement of source.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const specifier = statement.moduleSpecifier.text;
      const bindings = statement.importClause?.namedBindings;
      if (statement.importClause?.isTypeOnly || !bindings || !ts.isNamedImports(bindings)) continue;
      if (!shared.some((name) => specifier === name || specifier.startsWith(`${name}/`))) continue;
      for (const element of bindings.elements) {
        if (element.isTypeOnly) continue;
        const names = found.get(specifier) ?? new Set<string>();
        found.set(specifier, names.add((element.propertyName ?? element.name).text));
      }
    }
  }
  return found;
}

// Imports of LangGraph.js 1.4.0+ the server uses only where the deployment's copy has them (checked with `typeof`
// where they are used: run-worker.ts and run-executor.ts): an older copy's runs are handed back on stop by the abort
// after the grace period instead of a drain at a superstep boundary.
const USED_WHEN_PRESENT = ['RunControl from @langchain/langgraph', 'isGraphDrained from @langchain/langgraph'];

// The Agent Server's own code runs on the deployment's copy of LangGraph.js: everything it imports from it must
// exist in the oldest supported versions (a project pinned to them, installed from npm), but what it uses only when
// present.
describe('the server’s LangGraph.js imports against the oldest supported versions', () => {
  let install: string;
  beforeAll(() => {
    install = fs.mkdtempSync(path.join(os.tmpdir(), 'lg-oldest-'));
    for (const file of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(OLDEST, file), path.join(install, file));
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--ignore-scripts'], { cwd: install, stdio: 'pipe', timeout: 180_000 });
  }, 200_000);
  afterAll(() => fs.rmSync(install, { recursive: true, force: true }));

  it('finds every value the server imports', () => {
    const imports = sharedImports();
    expect(imports.size).toBeGreaterThan(3);
    // Loaded by plain Node (which requires their ESM-only dependencies), not by the test runner's module system.
    const check = `
      const load = require('node:module').createRequire(process.argv[1] + '/index.js');
      const missing = [];
      for (const [specifier, names] of JSON.parse(process.argv[2])) {
        const exported = load(specifier);
        for (const name of names) if (!(name in exported)) missing.push(name + ' from ' + specifier);
      }
      console.log(JSON.stringify(missing));`;
    const wanted = JSON.stringify([...imports].map(([specifier, names]) => [specifier, [...names]]));
    const output = execFileSync(process.execPath, ['-e', check, install, wanted], { encoding: 'utf8', timeout: 60_000 });
    const missing = JSON.parse(output) as string[];
    expect(missing.filter((name) => !USED_WHEN_PRESENT.includes(name))).toEqual([]);
  });
});
