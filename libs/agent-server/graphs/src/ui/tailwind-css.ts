import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'esbuild';

// A stylesheet Tailwind must generate: it imports Tailwind or uses one of its directives.
const TAILWIND_CSS = /@import\s+(url\()?\s*["']tailwindcss[/"']|@(tailwind|apply|theme|source|plugin|config|utility|custom-variant|reference)\b/;

// The platform's own Tailwind (a deployment need not install it, as the reference's CLI ships it).
function platformTailwind(): string {
  return path.dirname(require.resolve('tailwindcss/package.json'));
}

// True when `pkg` is installed in node_modules at or above `from`.
function installedAbove(pkg: string, from: string): boolean {
  for (let dir = from; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'node_modules', pkg, 'package.json'))) return true;
    if (path.dirname(dir) === dir) return false;
  }
}

// `tailwindcss` and its stylesheets from the project's node_modules when it has them, else from the platform's.
async function resolveTailwindStylesheet(id: string, base: string): Promise<string | undefined> {
  const match = /^tailwindcss(\/.+)?$/.exec(id);
  if (!match || installedAbove('tailwindcss', base)) return undefined;
  const file = path.join(platformTailwind(), match[1] ? match[1].slice(1) : 'index.css');
  if (existsSync(file)) return file;
  return existsSync(`${file}.css`) ? `${file}.css` : undefined;
}

/**
 * Generates the CSS of stylesheets that use Tailwind (v4: `@import "tailwindcss";`), as the reference's bundler
 * does with `@tailwindcss/postcss`: the classes are the candidates Tailwind's scanner finds in the project's files
 * (`projectDir`, or the stylesheet's `@source`s). Other stylesheets load as esbuild loads them.
 */
export function tailwindCss(projectDir: string): Plugin {
  return {
    name: 'langgraph-ui-tailwindcss',
    setup(builder) {
      builder.onLoad({ filter: /\.css$/ }, async ({ path: file }) => {
        const css = await readFile(file, 'utf8');
        if (!TAILWIND_CSS.test(css)) return undefined;
        // Loaded here: only a UI that uses Tailwind needs its compiler and its native scanner.
        const [{ compile }, { Scanner }] = await Promise.all([import('@tailwindcss/node'), import('@tailwindcss/oxide')]);
        const watchFiles: string[] = [];
        const compiler = await compile(css, {
          base: path.dirname(file),
          from: file,
          onDependency: (dependency) => watchFiles.push(dependency),
          customCssResolver: resolveTailwindStylesheet,
        });
        const root = compiler.root;
        const sources = [
          ...(root === 'none' ? [] : root === null ? [{ base: projectDir, pattern: '**/*', negated: false }] : [{ ...root, negated: false }]),
          ...compiler.sources,
        ];
        const candidates = new Scanner({ sources }).scan();
        return { contents: compiler.build(candidates), loader: 'css', resolveDir: path.dirname(file), watchFiles };
      });
    },
  };
}
