// PGlite's CommonJS build loads Node built-ins with `import("fs")`, `import("zlib")`, ... Jest runs modules in a
// VM sandbox where a dynamic import needs --experimental-vm-modules (which in turn breaks CommonJS callers), so
// for tests only those calls become the equivalent `Promise.resolve(require(...))`.
const { builtinModules } = require('node:module');
const crypto = require('node:crypto');

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const DYNAMIC_IMPORT = /\bimport\((["'])([^"']+)\1\)/g;

module.exports = {
  process(source) {
    return {
      // The module's own `require` is taken first: the bundle declares a local `var require` that would shadow it.
      code:
        'const __jestBuiltinRequire = require;\n' +
        source.replace(DYNAMIC_IMPORT, (call, _quote, name) =>
          builtins.has(name) ? `Promise.resolve().then(() => __jestBuiltinRequire(${JSON.stringify(name)}))` : call,
        ),
    };
  },
  getCacheKey(source, filename) {
    return crypto.createHash('sha256').update('v2').update(filename).update(source).digest('hex');
  },
};
