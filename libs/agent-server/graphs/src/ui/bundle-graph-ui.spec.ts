import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { bundleGraphUi, uiGlobalName } from './bundle-graph-ui';

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
});
