import { failureExcerpt } from './failure-excerpt';

describe('failureExcerpt', () => {
  it("keeps npm's whole ERESOLVE block, not only its last lines", () => {
    const output = [
      'npm warn config production Use `--omit=dev` instead.',
      'npm error code ERESOLVE',
      'npm error ERESOLVE unable to resolve dependency tree',
      'npm error',
      'npm error While resolving: yarn-peer-conflict@0.0.0',
      'npm error Found: zod@4.6.7',
      'npm error node_modules/zod',
      'npm error   zod@"4.6.7" from the root project',
      'npm error',
      'npm error Could not resolve dependency:',
      'npm error peer zod@"^3.24.1" from zod-to-json-schema@3.24.6',
      'npm error node_modules/zod-to-json-schema',
      'npm error   zod-to-json-schema@"3.24.6" from the root project',
      'npm error',
      'npm error Fix the upstream dependency conflict, or retry this command with --force or --legacy-peer-deps',
      'npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log',
    ].join('\n');
    const excerpt = failureExcerpt(output);
    expect(excerpt).toContain('npm error Found: zod@4.6.7');
    expect(excerpt).toContain('npm error peer zod@"^3.24.1" from zod-to-json-schema@3.24.6');
    expect(excerpt).not.toContain('npm warn');
    expect(excerpt.split('\n')).toHaveLength(15);
  });

  it("keeps yarn's, pnpm's and TypeScript's error lines, without terminal colours", () => {
    const output = [
      'yarn install v1.22.22',
      '[1/4] Resolving packages...',
      '\u001b[31merror\u001b[39m Couldn\'t find package "nope@^9" on the "npm" registry.',
      'info Visit https://yarnpkg.com/en/docs/cli/install for documentation about this command.',
      ' ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date',
      'src/agent.ts(3,7): error TS2322: Type \'string\' is not assignable to type \'number\'.',
    ].join('\n');
    expect(failureExcerpt(output).split('\n')).toEqual([
      'error Couldn\'t find package "nope@^9" on the "npm" registry.',
      ' ERR_PNPM_OUTDATED_LOCKFILE  Cannot install with "frozen-lockfile" because pnpm-lock.yaml is not up to date',
      "src/agent.ts(3,7): error TS2322: Type 'string' is not assignable to type 'number'.",
    ]);
  });

  it('falls back to the last lines, and bounds a long explanation', () => {
    expect(failureExcerpt('one\ntwo\n\nthree\n', 2)).toBe('two\nthree');
    const long = Array.from({ length: 100 }, (_, i) => `npm error line ${i}`).join('\n');
    const excerpt = failureExcerpt(long);
    expect(excerpt.split('\n')).toHaveLength(61);
    expect(excerpt).toMatch(/… \(40 more lines in the build log\)$/);
  });
});
