// The web console in a real browser (Debian's Chromium, playwright-core) against the whole platform (Postgres when
// DATABASE_URL is set): sign in, deploy the example agent from a local git repository and watch it reach DEPLOYED,
// open its /docs, chat with it and watch the answer stream, resume an interrupt, open the trace of that run, export
// traces to a local S3 server (s3rver) and cancel another export; a second workspace's key sees none of it.
// The browser session's cookie rules are checked on the same platform with plain HTTP.
import { randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestS3Server, type TestS3Server } from '@platform/export-s3/testing';
import { ensureConsoleBuilt } from '../../../tools/dev/console-build';
import { startTestPlatform, type TestPlatform } from '../../../tools/dev/test-platform';
import { controlPlaneTestEnv, reactAgentRepo } from '../../control-plane/e2e/control-plane.e2e.testing';
import { uniquePartitionQueue } from '../../export-worker/e2e/worker-processes.e2e.testing';
import { foreignRequests, hasChromium, launchChromium, shot } from './browser.e2e.testing';

const DEPLOY_TIMEOUT = 180_000;

async function signInOverHttp(gatewayUrl: string, apiKey: string): Promise<{ cookie: string; csrf: string }> {
  const res = await fetch(`${gatewayUrl}/api/v1/browser-session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: apiKey }) });
  expect(res.status).toBe(201);
  const token = res.headers.getSetCookie().find((c) => c.startsWith('platform_session='))?.split(';')[0] as string;
  return { cookie: token, csrf: ((await res.json()) as { csrf_token: string }).csrf_token };
}

(hasChromium() ? describe : describe.skip)('web console (Chromium, the whole platform)', () => {
  let platform: TestPlatform;
  let s3: TestS3Server;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let foreign: string[];
  const testEnv = controlPlaneTestEnv();
  const repo = reactAgentRepo();
  const name = `console-${randomUUID().slice(0, 6)}`;
  let deploymentId = '';
  type Made = { id: string; key: string };
  const admin = (method: string, route: string, body?: unknown) =>
    fetch(`${platform.gatewayUrl}${route}`, {
      method,
      headers: { 'x-api-key': platform.adminKey, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  // A failing step leaves a screenshot of where the page was (failed-<test>.png).
  const step = (title: string, body: () => Promise<void>, timeoutMs?: number) =>
    it(
      title,
      async () => {
        try {
          await body();
        } catch (err) {
          await shot(page, `failed-${title.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}`).catch(() => undefined);
          throw err;
        }
      },
      timeoutMs,
    );

  beforeAll(async () => {
    const consoleDir = await ensureConsoleBuilt();
    [platform, s3] = await Promise.all([
      startTestPlatform({
        controlPlaneEnv: testEnv.env,
        gatewayEnv: { CONSOLE_DIR: consoleDir },
        // One partition at a time, dispatched once a second: a 60-day export runs long enough to be cancelled.
        exportEnv: { EXPORT_MAX_RUNNING_RUNS_PER_EXPORT: '1', EXPORT_SCHEDULE_SPAWN_DELAY: '1s', EXPORT_SCHEDULE_INTERVAL: '1s' },
        exportPartitionQueue: uniquePartitionQueue('console'),
      }),
      startTestS3Server({ buckets: ['traces'] }),
    ]);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.setDefaultTimeout(20_000);
    foreign = foreignRequests(page, platform.gatewayUrl);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await platform?.stop();
    await s3?.close();
    repo.remove();
    await testEnv.cleanup();
  }, 60_000);

  it('browser sessions: no cookie → 401, cross-site POST refused, a revoked key ends its session', async () => {
    const gw = platform.gatewayUrl;
    expect((await fetch(`${gw}/v2/deployments`)).status).toBe(401);
    const made = (await (await admin('POST', '/api/v1/api-keys', { description: 'browser', workspace_id: platform.workspaceId, role: 'member' })).json()) as Made;
    const { cookie, csrf } = await signInOverHttp(gw, made.key);
    expect((await fetch(`${gw}/v2/deployments`, { headers: { cookie } })).status).toBe(200);
    const crossSite = await fetch(`${gw}/v2/auth/providers`, {
      method: 'POST',
      headers: { cookie, origin: 'https://evil.example', 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: '{}',
    });
    expect(crossSite.status).toBe(403);
    expect((await fetch(`${gw}/v2/auth/providers`, { method: 'POST', headers: { cookie, 'content-type': 'text/plain' }, body: '{}' })).status).toBe(403);
    // The services never take the cookie: they want the gateway's signature.
    expect((await admin('DELETE', `/api/v1/api-keys/${made.id}`)).status).toBe(204);
    expect((await fetch(`${gw}/v2/deployments`, { headers: { cookie } })).status).toBe(401);
  });

  step('signs in with an API key', async () => {
    await page.goto(`${platform.gatewayUrl}/`);
    await page.getByLabel('API key').waitFor();
    await shot(page, 'sign-in');
    await page.getByLabel('API key').fill('lsv2_sk_not-a-key');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid API key').waitFor();
    await page.getByLabel('API key').fill(platform.adminKey);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Deployments' }).waitFor();
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === 'platform_session')).toMatchObject({ httpOnly: true, sameSite: 'Strict' });
    expect(await page.evaluate(() => document.cookie)).not.toContain('platform_session');
  });

  step('creates a deployment from a local git repository (field errors at their field) and watches it reach DEPLOYED', async () => {
    await page.getByRole('link', { name: 'New deployment' }).click();
    await page.getByLabel('Name').fill('not a valid name!');
    await page.getByLabel('Repository URL').fill(repo.url);
    await page.getByRole('button', { name: 'Create deployment' }).click();
    await page.getByText('must start with a letter or digit').waitFor();
    await shot(page, 'create-deployment-errors');
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Add variable' }).click();
    await page.getByLabel('Name of variable 1').fill('GREETING');
    await page.getByLabel('Value of variable 1').fill('hello');
    await page.getByRole('button', { name: 'Create deployment' }).click();
    await page.getByRole('heading', { name }).waitFor();
    deploymentId = new URL(page.url()).pathname.split('/').at(-1) as string;
    await page.getByTestId('API URL-value').getByText(`/deployments/${deploymentId}`).waitFor();
    await page.getByRole('table', { name: 'Revisions' }).getByText('DEPLOYED').waitFor({ timeout: DEPLOY_TIMEOUT });
    // The build's log, through GET …/revisions/{id}/logs.
    await page.getByTestId('revision-log').getByText('Agent Server healthy').waitFor();
    await shot(page, 'deployment-details', { fullPage: true });
  }, DEPLOY_TIMEOUT + 60_000);

  step("opens the deployment's /docs with the session", async () => {
    const docs = await context.newPage();
    await docs.goto(`${platform.gatewayUrl}/deployments/${deploymentId}/docs`);
    await docs.locator('.swagger-ui .info .title').getByText('Agent Server').waitFor();
    await docs.getByText('/assistants/search').first().waitFor();
    await shot(docs, 'deployment-api-docs');
    await docs.close();
  });

  step('chats with the agent in the studio and sees the answer stream in, token by token', async () => {
    await page.goto(`${platform.gatewayUrl}/console/deployments/${deploymentId}/studio`);
    await page.getByTestId('graph').waitFor();
    expect(await page.getByTestId('graph').getAttribute('aria-label')).toContain('agent, tools');
    // Every text the last AI message showed on its way.
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { aiTexts: string[] }).aiTexts = []);
      new MutationObserver(() => {
        const last = [...document.querySelectorAll('[data-testid="message-ai"]')].at(-1);
        if (last?.textContent && seen.at(-1) !== last.textContent) seen.push(last.textContent);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByLabel('Message').fill('Weather in Paris?');
    await page.keyboard.press('Enter');
    await page.getByText('Here is the current weather: It is').waitFor({ timeout: 60_000 });
    const texts = await page.evaluate(() => (window as unknown as { aiTexts: string[] }).aiTexts);
    const final = texts.at(-1) as string;
    const partial = texts.filter((t) => t.length < final.length && final.startsWith(t.slice(0, 10)));
    expect(partial.length).toBeGreaterThanOrEqual(2);
    await page.getByRole('tab', { name: /Node updates/ }).click();
    await page.getByTestId('node-updates').getByText('tools').first().waitFor();
    await page.getByRole('tab', { name: 'Chat' }).click();
    await shot(page, 'studio-chat', { fullPage: true });
  }, 90_000);

  step('stops before a node and resumes the run', async () => {
    await page.getByRole('button', { name: 'New thread' }).click();
    await page.getByRole('combobox', { name: 'Interrupt before nodes' }).click();
    await page.getByRole('option', { name: 'tools' }).click();
    await page.keyboard.press('Escape');
    await page.getByLabel('Message').fill('Weather in Oslo?');
    await page.keyboard.press('Enter');
    await page.getByTestId('interrupt').getByText('Interrupted before tools').waitFor({ timeout: 60_000 });
    await shot(page, 'studio-interrupt', { fullPage: true });
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText(/Here is the current weather: .* Oslo/).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Cancel run' }).waitFor({ state: 'hidden' });
    await page.getByRole('tab', { name: /History/ }).click();
    const checkpoints = page.getByRole('list', { name: 'Checkpoints' }).getByRole('listitem');
    await checkpoints.getByText('(end)').first().waitFor();
    const before = await checkpoints.count();
    // Fork from the checkpoint before the tool ran: the tool and the model run again on a new branch.
    await checkpoints.filter({ hasText: '→ tools' }).first().click();
    await page.getByRole('button', { name: 'Fork from here' }).click();
    await page.getByRole('button', { name: 'Cancel run' }).waitFor({ state: 'hidden' });
    for (let i = 0; i < 60 && (await checkpoints.count()) <= before; i++) await page.waitForTimeout(500);
    expect(await checkpoints.count()).toBeGreaterThan(before);
    await shot(page, 'studio-history', { fullPage: true });
  }, 150_000);

  step('opens the trace of that run: a tree of runs with inputs, outputs, latency and tokens', async () => {
    await page.getByRole('link', { name: 'Traces' }).click();
    const project = page.getByRole('link', { name, exact: true });
    for (let i = 0; i < 30 && !(await project.isVisible()); i++) {
      await page.waitForTimeout(1_000);
      await page.reload();
    }
    await shot(page, 'traces-projects');
    await project.click();
    await page.getByRole('table', { name: 'Runs' }).waitFor({ timeout: 30_000 });
    await page.getByLabel('Filter').fill('eq(run_type, "chain"');
    await page.getByText(/position/).waitFor();
    await shot(page, 'traces-filter-error');
    await page.getByLabel('Filter').fill('eq(run_type, "chain")');
    await page.getByRole('button', { name: 'Apply' }).click();
    await shot(page, 'traces-runs');
    await page.getByRole('table', { name: 'Runs' }).getByRole('link').first().click();
    await page.getByRole('tree', { name: 'Runs of the trace' }).waitFor();
    expect(await page.getByRole('treeitem').count()).toBeGreaterThanOrEqual(3);
    await page.getByTestId('run-details').getByText('Total tokens').waitFor();
    await shot(page, 'trace-tree', { fullPage: true });
  }, 90_000);

  step('exports traces to S3: the destination error verbatim, an export to Completed, another cancelled', async () => {
    await page.getByRole('link', { name: 'Bulk exports' }).click();
    const form = page.getByRole('form', { name: 'New S3 destination' });
    await form.getByLabel('Display name').fill('local s3');
    await form.getByLabel('Bucket').fill('no-such-bucket');
    await form.getByLabel('Prefix').fill('console');
    await form.getByLabel('Endpoint URL').fill(s3.endpoint);
    await form.getByLabel('Access key ID').fill('S3RVER');
    await form.getByLabel('Secret access key').fill('S3RVER');
    await form.getByRole('button', { name: 'Test and save destination' }).click();
    await page.getByTestId('destination-error').getByText(/bucket/i).waitFor();
    await shot(page, 'exports-destination-error', { fullPage: true });
    await form.getByLabel('Bucket').fill('traces');
    await form.getByRole('button', { name: 'Test and save destination' }).click();
    await page.getByRole('table', { name: 'Destinations' }).getByText('local s3').waitFor();
    expect(await page.getByRole('table', { name: 'Destinations' }).textContent()).not.toContain('S3RVER');

    const exportForm = page.getByRole('form', { name: 'New bulk export' });
    await exportForm.getByLabel('Tracing project').click();
    await page.getByRole('option', { name }).click();
    await exportForm.getByLabel('Fields (empty: all)').click();
    for (const field of ['id', 'name', 'run_type', 'inputs', 'outputs']) await page.getByRole('option', { name: field, exact: true }).click();
    await page.keyboard.press('Escape');
    await exportForm.getByRole('button', { name: 'Start export' }).click();
    await page.getByRole('button', { name: 'Cancel export' }).or(page.getByText('Completed')).first().waitFor();
    await page.getByRole('heading').getByText('Completed').waitFor({ timeout: 60_000 });
    // Every partition done (the window spans two or three UTC days).
    await page.getByTestId('partitions-done').getByText(/^(\d+) \/ \1$/).waitFor();
    expect(Number(await page.getByTestId('rows-written').textContent())).toBeGreaterThan(0);
    await shot(page, 'export-completed', { fullPage: true });

    // A long one (60 days, one partition at a time), cancelled from its page.
    await page.getByRole('link', { name: '← All exports' }).click();
    await exportForm.getByLabel('Tracing project').click();
    await page.getByRole('option', { name }).click();
    await exportForm.getByRole('textbox', { name: 'Start' }).fill(new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 16));
    await exportForm.getByRole('button', { name: 'Start export' }).click();
    await page.getByRole('button', { name: 'Cancel export' }).click();
    await page.getByRole('heading').getByText('Cancelled').waitFor();
    await shot(page, 'export-cancelled');
    await page.getByRole('link', { name: '← All exports' }).click();
    await page.getByRole('table', { name: 'Exports' }).getByText('Cancelled').waitFor();
    await shot(page, 'exports', { fullPage: true });
  }, 120_000);

  step('manages OAuth providers and shows the callback page', async () => {
    await page.getByRole('link', { name: 'OAuth providers' }).click();
    await page.getByLabel('Provider id').fill('github');
    await page.getByRole('textbox', { name: /^Name/ }).fill('GitHub');
    await page.getByLabel('Client id').fill('client-1');
    await page.getByLabel('Authorization URL').fill('not a url');
    await page.getByLabel('Token URL').fill('https://github.com/login/oauth/access_token');
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByText('must be an http(s) URL').or(page.getByText(/Invalid URL/i)).first().waitFor();
    await page.getByLabel('Authorization URL').fill('https://github.com/login/oauth/authorize');
    await page.getByRole('button', { name: 'Add provider' }).click();
    await page.getByRole('table', { name: 'OAuth providers' }).getByText('GitHub', { exact: true }).waitFor();
    await shot(page, 'oauth-providers', { fullPage: true });
    await page.goto(`${platform.gatewayUrl}/console/oauth/callback?auth_id=${randomUUID()}&provider_id=github&status=failed&error=access_denied&error_description=The+user+denied+access`);
    await page.getByTestId('oauth-error').getByText('The user denied access').waitFor();
    await shot(page, 'oauth-callback');
  });

  step('is readable at a phone width', async () => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${platform.gatewayUrl}/console/deployments/${deploymentId}`);
    await page.getByRole('heading', { name }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await shot(page, 'phone-deployment');
    await page.getByRole('button', { name: 'Toggle navigation' }).click();
    await page.getByRole('link', { name: 'Traces' }).waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  step("a second workspace's key sees none of it", async () => {
    const workspace = (await (await admin('POST', '/api/v1/workspaces', { display_name: `other-${randomUUID().slice(0, 6)}` })).json()) as { id: string };
    const made = (await (await admin('POST', '/api/v1/api-keys', { description: 'other', workspace_id: workspace.id, role: 'member' })).json()) as Made;
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const otherPage = await other.newPage();
    await otherPage.goto(`${platform.gatewayUrl}/`);
    await otherPage.getByLabel('API key').fill(made.key);
    await otherPage.getByRole('button', { name: 'Sign in' }).click();
    await otherPage.getByText('No deployments yet.').waitFor();
    await otherPage.getByRole('link', { name: 'Traces' }).click();
    await otherPage.getByText('No tracing projects yet').waitFor();
    await otherPage.getByRole('link', { name: 'Bulk exports' }).click();
    await otherPage.getByText('No exports yet.').waitFor();
    await otherPage.getByText('No destinations yet.').waitFor();
    // Not even by URL.
    await otherPage.goto(`${platform.gatewayUrl}/console/deployments/${deploymentId}`);
    await otherPage.getByText(/not found/i).first().waitFor();
    await other.close();
  });

  step('signs out: the session ends, and the page made no request but to the gateway', async () => {
    await page.goto(`${platform.gatewayUrl}/console/deployments`);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('API key').waitFor();
    expect((await context.cookies()).find((c) => c.name === 'platform_session')).toBeUndefined();
    expect(foreign).toEqual([]);
  });
});
