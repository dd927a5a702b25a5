import fs from 'node:fs';
import { APPS, envRows, readmeOf, withEnvSection } from './env-docs';

describe('npm run docs:env', () => {
  it.each(APPS.map((app) => [app.name, app] as const))('apps/%s/README.md lists the variables of its config schema as they are now', (_name, app) => {
    const readme = fs.readFileSync(readmeOf(app.name), 'utf8');
    // Stale: run `npm run docs:env` and commit the READMEs.
    expect(withEnvSection(readme, app)).toBe(readme);
  });

  it.each(APPS.map((app) => [app.name, app] as const))('%s: every variable says what it does (a /** comment */ on its field)', (_name, app) => {
    expect(envRows(app).filter((row) => !row.description).map((row) => row.name)).toEqual([]);
  });
});
