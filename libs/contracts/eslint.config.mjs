import baseConfig from '../../eslint.config.mjs';

// src/gen is written by tools/proto/generate.ts (proto-loader-gen-types) and is not ours to lint.
export default [...baseConfig, { ignores: ['**/src/gen/**'] }];
