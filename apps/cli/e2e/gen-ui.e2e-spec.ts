import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@langchain/langgraph-sdk';
import { freePort } from '@platform/http-server';
import { controlPlaneTestEnv } from '../../control-plane/e2e/control-plane.e2e.testing';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { runCli, type CliProcess } from './cli.e2e.testing';

// A project shaped as langchain-ai's gen-UI template: its modules import each other through the `@/…` aliases of
// its tsconfig `paths` (graph and UI alike), and its UI's stylesheet is Tailwind v4 (`@import "tailwindcss";`).
const FIXTURE = path.resolve(__dirname, 'fixtures', 'gen-ui');

function genUiProject(): { dir: string; remove: () => void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-platform-gen-ui-'));
  fs.cpSync(FIXTURE, dir, { recursive: true });
  return { dir, remove: () => fs.rmSync(dir, { recursive: true, force: true }) };
}

/** Runs the graph, then fetches the UI's HTML and the files it links to; `headers` authenticate through a gateway. */
async function expectGenUiServed(apiUrl: string, client: Client, headers: Record<string, string> = {}): Promise<void> {
  expect(await client.runs.wait(null, 'weather', { input: { city: 'Paris' } })).toMatchObject({ weather: { city: 'Paris', summary: 'Sunny in Paris' } });

  const page = await fetch(`${apiUrl}/ui/weather`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ name: 'weather' }) });
  expect(page.status).toBe(200);
  const html = await page.text();
  expect(html).toContain(`<link rel="stylesheet" href="${apiUrl}/ui/weather/entrypoint.css" />`);
  expect(html).toContain(`<script src="${apiUrl}/ui/weather/entrypoint.js" onload='__LGUI_weather.render("weather", "{{shadowRootId}}")'></script>`);

  const script = await fetch(`${apiUrl}/ui/weather/entrypoint.js`, { headers });
  expect(script.status).toBe(200);
  // The component, reached through `@/components/…` from the UI module.
  expect(await script.text()).toContain('weather-card rounded-xl bg-sky-500 p-4 text-white shadow-md');

  const stylesheet = await fetch(`${apiUrl}/ui/weather/entrypoint.css`, { headers });
  expect(stylesheet.status).toBe(200);
  expect(stylesheet.headers.get('content-type')).toMatch(/^text\/css/);
  const css = await stylesheet.text();
  expect(css).toContain('tailwindcss v4');
  for (const utility of ['.rounded-xl {', '.bg-sky-500 {', '.p-4 {', '.text-white {', '.shadow-md {', '.text-lg {', '.font-semibold {']) expect(css).toContain(utility);
  // Only what the project uses, and the project's own `@apply`.
  expect(css).not.toContain('.bg-red-500 {');
  expect(css).toMatch(/\.weather-card \{[^}]*letter-spacing: var\(--tracking-wide\);/);
}

describe('a gen-UI project (tsconfig paths aliases, Tailwind v4 UI)', () => {
  describe('in agent-platform dev', () => {
    let project: ReturnType<typeof genUiProject>;
    let cli: CliProcess;
    let apiUrl: string;

    beforeAll(async () => {
      project = genUiProject();
      const port = await freePort('127.0.0.1');
      cli = runCli(['dev', '--port', String(port)], { cwd: project.dir, env: { LOG_LEVEL: 'info', DATABASE_URL: '' } });
      apiUrl = (await cli.waitFor(/API:\s+(http:\/\/\S+)/))[1];
    });
    afterAll(async () => {
      const code = await cli?.stop();
      project?.remove();
      expect(code).toBe(0);
    });

    it('loads and runs the graph, and serves the UI with its Tailwind CSS', async () => {
      await expectGenUiServed(apiUrl, new Client({ apiUrl }));
    });

    it("reads the graph's state schema through the aliased type", async () => {
      const client = new Client({ apiUrl });
      const [assistant] = await client.assistants.search({ graphId: 'weather' });
      const schemas = await client.assistants.getSchemas(assistant.assistant_id);
      // Read from TypeScript: `WeatherProps` comes from `@/components/weather-card` (unresolved, it would be `any`).
      const state = schemas.state_schema as { properties: Record<string, { $ref?: string }>; definitions?: Record<string, unknown> };
      const ref = state.properties.weather?.$ref;
      const weather = ref ? state.definitions?.[ref.replace('#/definitions/', '')] : state.properties.weather;
      expect(weather).toMatchObject({ type: 'object', properties: { city: { type: 'string' }, summary: { type: 'string' } } });
    });
  });

  describe('deployed through the platform', () => {
    let platform: TestPlatform;
    let project: ReturnType<typeof genUiProject>;
    const testEnv = controlPlaneTestEnv();

    beforeAll(async () => {
      platform = await startTestPlatform({ controlPlaneEnv: testEnv.env, gatewayEnv: { DEPLOYMENT_CACHE_TTL: '300ms' } });
      project = genUiProject();
    });
    afterAll(async () => {
      await platform?.stop();
      project?.remove();
      await testEnv.cleanup();
    });

    it('builds, deploys, runs the graph and serves the UI with its Tailwind CSS through the gateway', async () => {
      const cli = runCli(['deploy', '--name', 'gen-ui', '--gateway', platform.gatewayUrl, '--api-key', platform.adminKey, '--workspace', platform.workspaceId], { cwd: project.dir });
      const code = await cli.exited;
      expect(cli.output()).toMatch(/revision \S+: DEPLOYED/);
      expect(code).toBe(0);
      const apiUrl = cli.output().match(/API URL: (\S+)/)?.[1] as string;
      const headers = { 'x-api-key': platform.adminKey, 'x-tenant-id': platform.workspaceId };
      await expectGenUiServed(apiUrl, new Client({ apiUrl, apiKey: platform.adminKey, defaultHeaders: { 'X-Tenant-Id': platform.workspaceId } }), headers);
    });
  });
});
