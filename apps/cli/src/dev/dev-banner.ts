import path from 'node:path';
import type { DevOptions } from './dev-options';

/** What `dev` prints once the server answers: where the API and its docs are (as `langgraph dev` does). */
export function devBanner(options: DevOptions, apiUrl: string, databaseUrl: string | undefined): string {
  const database = databaseUrl ? 'Postgres (DATABASE_URL)' : `PGlite in ${path.join(options.projectDir, '.langgraph_api')}`;
  return [
    '',
    '  Agent platform dev server',
    '',
    `  - API:      ${apiUrl}`,
    `  - API Docs: ${apiUrl}/docs`,
    `  - Project:  ${options.configPath}`,
    `  - Database: ${database}`,
    `  - Reload:   ${options.reload ? 'on (a saved file reaches the next run; runs in flight finish on the code they started with)' : 'off'}`,
    options.apiKey ? '  - Auth:     every request sends X-Api-Key' : '  - Auth:     none (loopback only)',
    '',
    '  This server is for development. Deploy the project with `npx agent-platform deploy`. Ctrl-C stops it.',
    '',
  ].join('\n');
}
