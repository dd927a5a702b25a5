import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { findMigrationsDir } from './migrations-dir';

describe('findMigrationsDir', () => {
  it('finds prisma/<service>/migrations in an ancestor of the start directory', async () => {
    const root = await fs.mkdtemp(path.join(os.tmpdir(), 'workspace-'));
    try {
      const migrations = path.join(root, 'prisma', 'gateway', 'migrations');
      const bundleDir = path.join(root, 'dist', 'apps', 'gateway');
      await fs.mkdir(migrations, { recursive: true });
      await fs.mkdir(bundleDir, { recursive: true });
      expect(findMigrationsDir('gateway', bundleDir)).toBe(migrations);
    } finally {
      await fs.rm(root, { recursive: true, force: true });
    }
  });

  it('falls back to the working directory when none is found', () => {
    expect(findMigrationsDir('no-such-service', os.tmpdir())).toBe(path.resolve('prisma/no-such-service/migrations'));
  });
});
