#!/usr/bin/env node
// `agent-platform` (package.json `bin`; `npx agent-platform <command>` in this checkout): the TypeScript CLI run
// with tsx, resolving the platform's own paths whichever directory it is started from.
const path = require('node:path');

process.env.TSX_TSCONFIG_PATH ??= path.resolve(__dirname, '../../../tsconfig.base.json');
require('tsx/cjs/api').register();
require('../src/main.ts');
