import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../usage-error';
import { parseDevOptions } from './dev-options';

describe('parseDevOptions', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dev-options-'));
  fs.writeFileSync(path.join(dir, 'langgraph.json'), '{"graphs":{}}');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const parse = (args: string[], env: Record<string, string> = {}) => parseDevOptions(args, env, dir);

  it('defaults: ./langgraph.json on 127.0.0.1:2024 with reload', () => {
    expect(parse([])).toMatchObject({ configPath: path.join(dir, 'langgraph.json'), projectDir: dir, host: '127.0.0.1', port: 2024, reload: true });
    expect(parse(['--no-reload', '--port', '3000', '--host', 'localhost'])).toMatchObject({ port: 3000, reload: false, host: 'localhost' });
  });

  it('names the bad flag or file', () => {
    expect(() => parse(['--prot', '1'])).toThrow(new UsageError("dev: Unknown option '--prot' (see --help)"));
    expect(() => parse(['-c', 'missing.json'])).toThrow(/--config: missing.json not found/);
    expect(() => parse(['--port', 'http'])).toThrow(/--port: 'http' is not a port/);
    expect(() => parse(['--port'])).toThrow(/--port/);
  });

  it('refuses a non-loopback host unless --allow-remote, and then requires a key', () => {
    expect(() => parse(['--host', '0.0.0.0'])).toThrow(/--host 0.0.0.0 is reachable from other machines; add --allow-remote/);
    expect(() => parse(['--host', '0.0.0.0', '--allow-remote'])).toThrow(/--allow-remote needs --api-key/);
    expect(() => parse(['--host', '0.0.0.0', '--allow-remote', '--api-key', 'short'])).toThrow(/at least 16 characters/);
    expect(parse(['--host', '0.0.0.0', '--allow-remote'], { AGENT_PLATFORM_API_KEY: 'k'.repeat(16) })).toMatchObject({ apiKey: 'k'.repeat(16) });
    expect(parse(['--host', '127.0.0.2']).apiKey).toBeUndefined();
  });

  it('--help needs no project', () => {
    expect(parseDevOptions(['--help'], {}, os.tmpdir()).help).toBe(true);
  });
});
