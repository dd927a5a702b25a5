// Chromium for the console's browser tests: Debian's /usr/bin/chromium driven by playwright-core, headless, with the
// flags this network needs (no background connections), each browser on a fresh profile. Screenshots go to
// CONSOLE_SCREENSHOTS (default tmp/console-e2e); `CONSOLE_SCREENSHOTS=apps/console/docs/screenshots` refreshes the
// README's pictures.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ROOT = path.resolve(__dirname, '../../..');
export const SCREENSHOTS = path.resolve(ROOT, process.env.CONSOLE_SCREENSHOTS ?? 'tmp/console-e2e');

/** Whether the browser is there; without it the suite is skipped with a printed line, or fails under REQUIRE_SERVICES=1. */
export function hasChromium(): boolean {
  if (fs.existsSync(CHROMIUM)) return true;
  if (process.env.REQUIRE_SERVICES === '1') throw new Error(`${CHROMIUM} is missing, and REQUIRE_SERVICES=1 requires it (apt-get install -y chromium)`);
  process.stderr.write(`SKIPPED: console browser tests (${CHROMIUM} not found; apt-get install -y chromium)\n`);
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Playwright gives every launch a fresh temporary --user-data-dir.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Saves a screenshot of the page as `<name>.png`. */
export async function shot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: options.fullPage ?? false, animations: 'disabled' });
}

/** Requests the page made to anything but `origin` (the console must talk to its gateway only). */
export function foreignRequests(page: Page, origin: string): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith(origin) && !url.startsWith('data:') && !url.startsWith('blob:')) seen.push(url);
  });
  return seen;
}
