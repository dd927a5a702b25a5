import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { closeDataDir } from './data-dir';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

describe('closeDataDir', () => {
  let dir: string;
  beforeEach(() => {
    dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'data-dir-')), '.data');
  });
  afterEach(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }));

  it('lets others pass the folder but list nothing, and closes every entry but the open ones', () => {
    fs.mkdirSync(path.join(dir, 'gateway'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'internal-secret'), 'secret', { mode: 0o644 });
    fs.mkdirSync(path.join(dir, 'control-plane-work'), { mode: 0o711 });
    closeDataDir(dir, { create: ['tracing'], open: ['control-plane-work'] });
    expect(modeOf(dir)).toBe(0o711);
    expect(modeOf(path.join(dir, 'gateway'))).toBe(0o700);
    expect(modeOf(path.join(dir, 'tracing'))).toBe(0o700);
    expect(modeOf(path.join(dir, 'internal-secret'))).toBe(0o600);
    expect(modeOf(path.join(dir, 'control-plane-work'))).toBe(0o711);
  });

  it('leaves an in-memory data folder alone', () => {
    expect(() => closeDataDir('memory://')).not.toThrow();
  });
});
