import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GEN_DIR, diffTrees, generateContractTypes, loaderFlags } from './generate';

describe('proto:gen', () => {
  it('passes the shared loader options as flags', () => {
    expect(loaderFlags()).toEqual(['--keepCase', '--longs=String', '--enums=String', '--defaults', '--oneofs']);
  });

  it('has written libs/contracts/src/gen from the current protos (re-running changes nothing)', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'proto-gen-'));
    try {
      expect(generateContractTypes(tmp).length).toBeGreaterThan(0);
      expect(diffTrees(tmp, GEN_DIR)).toEqual([]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
