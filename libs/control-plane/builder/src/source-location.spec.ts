import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Builder } from './build-revision';
import { resolveRepoLocation, type SourceRules } from './source-location';

// A real file system: uploads of two tenants, the platform's checkout, an operator's repository folder, a
// look-alike folder next to it, and symlinks out of it.
describe('resolveRepoLocation', () => {
  let root: string;
  let rules: SourceRules;
  let uploads: string;
  let platform: string;
  let repos: string;
  const A = 'aaaaaaaa-0000-4000-8000-000000000001';
  const B = 'bbbbbbbb-0000-4000-8000-000000000002';

  beforeAll(() => {
    root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'source-location-')));
    uploads = path.join(root, 'work', 'sources');
    platform = path.join(root, 'platform');
    repos = path.join(root, 'srv', 'repos');
    for (const dir of [path.join(uploads, A, 'secret-a'), path.join(uploads, B, 'mine'), platform, path.join(repos, 'agent'), path.join(root, 'srv', 'repos-evil', 'x')]) {
      fs.mkdirSync(dir, { recursive: true });
    }
    fs.symlinkSync(platform, path.join(repos, 'to-platform'));
    fs.symlinkSync(path.join(uploads, A, 'secret-a'), path.join(repos, 'to-a'));
    fs.symlinkSync(path.join(uploads, A, 'secret-a'), path.join(uploads, B, 'link-to-a'));
    rules = { allowedRepoUrls: [pathToFileURL(repos).href, 'https://github.com/acme'], uploadsRoot: uploads, protectedPaths: [platform, path.join(root, 'work')] };
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  const bUploads = () => `${pathToFileURL(path.join(uploads, B)).href}`;

  it("allows a tenant's own upload, as its real path", () => {
    expect(resolveRepoLocation(`${bUploads()}/mine`, rules, B)).toEqual({ kind: 'local', path: path.join(uploads, B, 'mine') });
  });

  it.each([
    ['..%2f in the name', (b: string) => `${b}/..%2f${A}%2fsecret-a`],
    ['..%2F upper case', (b: string) => `${b}/..%2F${A}%2Fsecret-a`],
    ['%2e%2e as a segment', (b: string) => `${b}/%2e%2e/${A}/secret-a`],
    ['%2E%2E upper case', (b: string) => `${b}/%2E%2E/${A}/secret-a`],
    ['.%2e mixed', (b: string) => `${b}/.%2e/${A}/secret-a`],
    ['%2e. mixed', (b: string) => `${b}/%2e./${A}/secret-a`],
    ['plain ..', (b: string) => `${b}/../${A}/secret-a`],
    ['double-encoded %252e%252e', (b: string) => `${b}/%252e%252e/${A}/secret-a`],
    ['double-encoded %252f', (b: string) => `${b}/..%252f${A}%252fsecret-a`],
    ['backslashes', (b: string) => `${b}/..\\${A}\\secret-a`],
    ['encoded backslashes', (b: string) => `${b}/..%5c${A}%5csecret-a`],
    ['a symlink in its own upload pointing at another', (b: string) => `${b}/link-to-a`],
    ["the platform's own checkout", (b: string) => `${b}/..%2f..%2f..%2f..%2fplatform`],
    ['the platform checkout by dot segments', (b: string) => `${b}/%2e%2e/%2e%2e/%2e%2e/platform`],
    ['a host in the file URL', () => `file://evil.example${path.join(uploads, B, 'mine')}`],
    ['a NUL', (b: string) => `${b}/mine%00`],
  ])("refuses another tenant's upload or the platform reached by %s", (_name, build) => {
    expect(resolveRepoLocation(build(bUploads()), rules, B)).toBeUndefined();
  });

  it("refuses another tenant's upload even where the prefixes allow every file", () => {
    const open: SourceRules = { ...rules, allowedRepoUrls: ['file://', '*'] };
    expect(resolveRepoLocation(pathToFileURL(path.join(uploads, A, 'secret-a')).href, open, B)).toBeUndefined();
    expect(resolveRepoLocation(pathToFileURL(path.join(uploads, A, 'secret-a')).href, open, A)).toEqual({ kind: 'local', path: path.join(uploads, A, 'secret-a') });
    expect(resolveRepoLocation(pathToFileURL(platform).href, open, B)).toBeUndefined();
    expect(resolveRepoLocation(pathToFileURL(path.join(root, 'work', 'logs')).href, open, B)).toBeUndefined();
    expect(resolveRepoLocation(pathToFileURL(path.join(repos, 'agent')).href, open, B)).toEqual({ kind: 'local', path: path.join(repos, 'agent') });
  });

  it('matches file prefixes on whole segments of the real path', () => {
    expect(resolveRepoLocation(pathToFileURL(path.join(repos, 'agent')).href, rules, B)).toEqual({ kind: 'local', path: path.join(repos, 'agent') });
    expect(resolveRepoLocation(pathToFileURL(path.join(root, 'srv', 'repos-evil', 'x')).href, rules, B)).toBeUndefined();
    expect(resolveRepoLocation(`${pathToFileURL(repos).href}/../repos-evil/x`, rules, B)).toBeUndefined();
    // A symlink inside the allowed folder leads out of it: the real path decides.
    expect(resolveRepoLocation(pathToFileURL(path.join(repos, 'to-platform')).href, rules, B)).toBeUndefined();
    expect(resolveRepoLocation(pathToFileURL(path.join(repos, 'to-a')).href, rules, B)).toBeUndefined();
  });

  it('matches remote prefixes on the canonical URL at segment boundaries', () => {
    expect(resolveRepoLocation('https://github.com/acme/agent', rules)).toEqual({ kind: 'remote', url: 'https://github.com/acme/agent' });
    expect(resolveRepoLocation('https://github.com/acme', rules)).toEqual({ kind: 'remote', url: 'https://github.com/acme' });
    expect(resolveRepoLocation('https://github.com/acme-evil/agent', rules)).toBeUndefined();
    expect(resolveRepoLocation('https://github.com/acme/%2e%2e/other/agent', rules)).toBeUndefined();
    expect(resolveRepoLocation('https://github.com/acme/../other/agent', rules)).toBeUndefined();
    expect(resolveRepoLocation('HTTPS://GITHUB.COM/acme/agent', rules)).toEqual({ kind: 'remote', url: 'https://github.com/acme/agent' });
    expect(resolveRepoLocation('https://github.com.evil.example/acme/agent', { ...rules, allowedRepoUrls: ['https://github.com'] })).toBeUndefined();
    expect(resolveRepoLocation('https://github.com@evil.example/acme', { ...rules, allowedRepoUrls: ['https://github.com'] })).toBeUndefined();
  });

  it('refuses option-like and transport-helper URLs even where anything is allowed', () => {
    const any: SourceRules = { allowedRepoUrls: ['*'] };
    expect(resolveRepoLocation('--upload-pack=evil', any)).toBeUndefined();
    expect(resolveRepoLocation('ext::sh -c touch% /tmp/pwned', any)).toBeUndefined();
    expect(resolveRepoLocation('ext::sh', any)).toBeUndefined();
    expect(resolveRepoLocation('fd::3', any)).toBeUndefined();
    expect(resolveRepoLocation('https://gitlab.example/x', any)).toEqual({ kind: 'remote', url: 'https://gitlab.example/x' });
  });
});

describe('Builder: the source is checked again where it is fetched', () => {
  it('refuses, at fetch time, a repo_url the rules do not allow (a row written before the rules, or edited since)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'builder-refuse-'));
    try {
      const builder = new Builder({ platformRoot: process.cwd(), timeoutMs: 10_000, defaultInstallCommand: 'npm install', sources: { allowedRepoUrls: ['https://github.com/'], protectedPaths: [process.cwd()] } });
      const build = builder.build({ repoUrl: pathToFileURL(process.cwd()).href, tenantId: 't', ref: 'main', configPath: 'langgraph.json', dir: path.join(dir, 'checkout'), signal: new AbortController().signal });
      await expect(build).rejects.toThrow('repo_url is not a repository location this control plane allows');
      expect(fs.existsSync(path.join(dir, 'checkout'))).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
