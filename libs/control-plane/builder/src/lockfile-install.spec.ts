import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lockfileInstall } from './lockfile-install';

describe('lockfileInstall', () => {
  let dir: string;
  const write = (files: Record<string, string>) => {
    for (const [name, content] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), content);
  };
  const manager = (packageManager: string) => JSON.stringify({ name: 'p', packageManager });
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cp-lock-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('installs nothing by itself without a lockfile', async () => {
    write({ 'package.json': '{"name":"p"}' });
    expect(await lockfileInstall(dir)).toBeUndefined();
  });

  it.each([
    [{ 'package-lock.json': '{}' }, 'package-lock.json', 'npm ci --no-audit --no-fund'],
    [{ 'npm-shrinkwrap.json': '{}' }, 'npm-shrinkwrap.json', 'npm ci --no-audit --no-fund'],
    [{ 'yarn.lock': '# yarn lockfile v1\n' }, 'yarn.lock', 'npx --yes yarn@1.22.22 install --non-interactive'],
    [{ 'yarn.lock': '', 'package.json': manager('yarn@1.22.19+sha512.abc') }, 'yarn.lock', 'npx --yes yarn@1.22.19 install --non-interactive'],
    [
      { 'yarn.lock': '__metadata:\n  version: 8\n' },
      'yarn.lock',
      'YARN_NODE_LINKER=node-modules YARN_ENABLE_IMMUTABLE_INSTALLS=false npx --yes --package=@yarnpkg/cli-dist@4 -- yarn install',
    ],
    [
      { 'yarn.lock': '__metadata:\n', 'package.json': manager('yarn@3.6.4') },
      'yarn.lock',
      'YARN_NODE_LINKER=node-modules YARN_ENABLE_IMMUTABLE_INSTALLS=false npx --yes --package=@yarnpkg/cli-dist@3.6.4 -- yarn install',
    ],
    [{ 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n" }, 'pnpm-lock.yaml', 'npx --yes pnpm@9 install --frozen-lockfile'],
    [{ 'pnpm-lock.yaml': "lockfileVersion: '6.0'\n" }, 'pnpm-lock.yaml', 'npx --yes pnpm@8 install --frozen-lockfile'],
    [{ 'pnpm-lock.yaml': 'lockfileVersion: 5.4\n' }, 'pnpm-lock.yaml', 'npx --yes pnpm@7 install --frozen-lockfile'],
    [{ 'pnpm-lock.yaml': "lockfileVersion: '9.0'\n", 'package.json': manager('pnpm@10.11.0') }, 'pnpm-lock.yaml', 'npx --yes pnpm@10.11.0 install --frozen-lockfile'],
    // The reference's order: yarn, then pnpm, then npm.
    [{ 'yarn.lock': '', 'pnpm-lock.yaml': '', 'package-lock.json': '{}' }, 'yarn.lock', 'npx --yes yarn@1.22.22 install --non-interactive'],
    [{ 'pnpm-lock.yaml': '', 'package-lock.json': '{}' }, 'pnpm-lock.yaml', 'npx --yes pnpm@9 install --frozen-lockfile'],
  ])('picks the install of %j', async (files, lockfile, command) => {
    write(files);
    expect(await lockfileInstall(dir)).toEqual({ lockfile, command });
  });

  it('never puts an odd packageManager value into the command', async () => {
    write({ 'yarn.lock': '', 'package.json': manager('yarn@1.0.0; rm -rf /') });
    expect((await lockfileInstall(dir))?.command).toBe('npx --yes yarn@1.22.22 install --non-interactive');
    write({ 'package.json': '{"packageManager": 42' });
    expect((await lockfileInstall(dir))?.command).toBe('npx --yes yarn@1.22.22 install --non-interactive');
  });
});
