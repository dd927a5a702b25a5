// The official conformance suite (@langchain/langgraph-checkpoint-validation) against PrismaCheckpointSaver,
// through the package's documented `validate(initializer)` API under vitest. Its `validate-checkpointer` CLI
// can't be used: the 1.1.1 runner it ships imports helpers its own bundle no longer exports.
// Also runs the opt-in getDeltaChannelHistory suite, which the saver relies on the base walk for.
import { createRequire } from 'node:module';
import { deltaChannelHistoryTests, validate } from '@langchain/langgraph-checkpoint-validation';

// vitest's worker has no TypeScript loader for require(); tsx compiles the initializer and its @platform/* imports.
const { require: tsxRequire } = createRequire(import.meta.url)('tsx/cjs/api');
const { default: initializer } = tsxRequire('./initializer.ts', import.meta.filename);

validate(initializer);
deltaChannelHistoryTests(initializer);
