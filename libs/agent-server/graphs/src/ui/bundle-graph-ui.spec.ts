import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { bundleGraphUi, uiGlobalName } from './bundle-graph-ui';

const repoRoot = path.resolve(__dirname, '../../../../..');
const run = promisify(execFile);
jest.setTimeout(60_000);

describe('bundleGraphUi (langgraph.json ui)', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'graph-ui-'));
    writeFileSync(path.join(dir, 'ui.tsx'), "import { shade } from 'design-kit';\nexport default { card: () => <b className={shade}>hi</b> };\n");
    writeFileSync(path.join(dir, 'broken.tsx'), 'export default { card: () => <b>hi</i> };\n');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('bundles for the browser under the graph global, React and the shared packages left to the page', async () => {
    const bundles = await bundleGraphUi({ 'my-agent': path.join(dir, 'ui.tsx') }, { dir, shared: ['design-kit'] });
    expect(bundles['my-agent']?.map((file) => file.basename)).toEqual(['entrypoint.js']);
    const code = new TextDecoder().decode(bundles['my-agent']?.[0]?.contents);
    expect(uiGlobalName('my-agent')).toBe('__LGUI_my_agent');
    expect(code).toMatch(/^var __LGUI_my_agent = /);
    expect(code).toContain('globalThis[Symbol.for("LGUI_REQUIRE")]');
    expect(code).not.toContain('typeof require !== "undefined" ? require');
    expect(code).toContain('window[LGUI_STORE].respond(shadowRootId, components[name], renderEl)');
  });

  it('fails naming the module and the error when it does not bundle (or a package it needs is missing)', async () => {
    await expect(bundleGraphUi({ agent: path.join(dir, 'broken.tsx') }, { dir, shared: [] })).rejects.toThrow(/^ui\.agent: cannot bundle broken\.tsx: broken\.tsx:1: /);
    await expect(bundleGraphUi({ agent: path.join(dir, 'ui.tsx') }, { dir, shared: [] })).rejects.toThrow(/Could not resolve "design-kit"/);
  });

  // Tailwind's compiler registers module hooks as it loads, which Jest's sandbox refuses: this runs the bundler on
  // plain Node (an esbuild bundle of testing/bundle-ui.testing.ts), as the Agent Server does.
  it("resolves the project's tsconfig paths and generates its Tailwind v4 CSS from the classes its files use", async () => {
    const project = mkdtempSync(path.join(tmpdir(), 'graph-ui-tailwind-'));
    const outDir = mkdtempSync(path.join(repoRoot, 'tmp', 'graph-ui-'));
    try {
      const files: Record<string, string> = {
        'tsconfig.json': JSON.stringify({ compilerOptions: { jsx: 'react-jsx', paths: { '@/*': ['./src/*'] } } }),
        'src/agent/ui.tsx': "import '@/agent/ui.css';\nimport { Badge } from '@/components/badge';\nexport default { badge: () => <Badge /> };\n",
        'src/components/badge.tsx': 'export const Badge = () => <span className="rounded-lg bg-sky-500 px-3 text-white">sunny</span>;\n',
        'src/agent/ui.css': '@import "tailwindcss";\n.weather-card { @apply font-bold; }\n',
      };
      for (const [name, content] of Object.entries(files)) {
        mkdirSync(path.dirname(path.join(project, name)), { recursive: true });
        writeFileSync(path.join(project, name), content);
      }
      const script = path.join(outDir, 'bundle-ui.cjs');
      await build({ entryPoints: [path.join(__dirname, 'testing', 'bundle-ui.testing.ts')], bundle: true, platform: 'node', format: 'cjs', packages: 'external', outfile: script, logLevel: 'silent' });

      const entries = JSON.stringify({ weather: path.join(project, 'src/agent/ui.tsx') });
      const { stdout } = await run(process.execPath, [script, entries, project], { cwd: repoRoot });
      const bundles = JSON.parse(stdout) as Record<string, Record<string, string>>;

      expect(Object.keys(bundles.weather ?? {}).sort()).toEqual(['entrypoint.css', 'entrypoint.js']);
      const css = bundles.weather['entrypoint.css'];
      // Tailwind's own layers, the utilities the project's files use (and only those), the project's @apply.
      expect(css).toContain('tailwindcss v4');
      for (const utility of ['.rounded-lg', '.bg-sky-500', '.px-3', '.text-white']) expect(css).toContain(utility);
      expect(css).not.toContain('.bg-red-900');
      expect(css).toMatch(/\.weather-card \{[^}]*font-weight: var\(--font-weight-bold\);/);
      expect(bundles.weather['entrypoint.js']).toContain('bg-sky-500');
    } finally {
      rmSync(project, { recursive: true, force: true });
      rmSync(outDir, { recursive: true, force: true });
    }
  });
});
