import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseUpOptions } from './up.command';

describe('parseUpOptions', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'up-options-'));
  fs.writeFileSync(path.join(dir, 'langgraph.json'), '{"graphs":{}}');
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('takes the project and passes what follows -- to the launcher', () => {
    expect(parseUpOptions(['--', '--replicas', 'export-worker=2'], dir)).toEqual({ configPath: path.join(dir, 'langgraph.json'), help: false, rest: ['--replicas', 'export-worker=2'] });
  });

  it('names the bad flag or file', () => {
    expect(() => parseUpOptions(['--replicas', 'x'], dir)).toThrow("up: Unknown option '--replicas'");
    expect(() => parseUpOptions(['-c', 'nope.json'], dir)).toThrow(/up: --config: nope.json not found/);
  });
});
