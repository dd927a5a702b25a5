// vitest settings for the checkpointer conformance suite, which relies on vitest globals (describe, it, expect).
// Run by tools/test/run.mjs: `vitest run --config libs/agent-server/checkpointer/conformance/vitest.config.mjs`.
import path from 'node:path';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: import.meta.dirname,
    include: ['*.conformance.mjs'],
    globals: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One database serves the suite; its files must not run side by side.
    fileParallelism: false,
  },
  cacheDir: path.join(import.meta.dirname, '../../../../node_modules/.vite/checkpointer-conformance'),
});
