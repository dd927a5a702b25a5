import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { InputError } from '@platform/errors';
import { UI_RENDER_TEMPLATE } from './ui-render.template';

/** One file of a graph's UI bundle (`entrypoint.js`, `entrypoint.css`), served under `/ui/{graph_id}/`. */
export interface UiAsset {
  basename: string;
  contents: Uint8Array;
}

// The page provides these (LoadExternalComponent's `LGUI_REQUIRE`): a bundle must not carry its own React.
const PROVIDED = ['react', 'react-dom', '@langchain/langgraph-sdk', '@langchain/langgraph-sdk/react-ui'];

/** The global a graph's bundle defines (`__LGUI_<graph_id>`, other characters as `_`), as LangGraph names it. */
export const uiGlobalName = (graphId: string) => `__LGUI_${graphId.replace(/[^a-zA-Z0-9]/g, '_')}`;

// The bundle's entry: the project's components module, and the renderer over it.
function entrypoint(file: string, dir: string): Plugin {
  let relative = path.relative(dir, file).split(path.sep).join('/');
  if (!relative.startsWith('.')) relative = `./${relative}`;
  return {
    name: 'langgraph-ui-entrypoint',
    setup(builder) {
      builder.onResolve({ filter: /^entrypoint$/ }, () => ({ path: path.join(dir, 'ui.entrypoint.tsx'), namespace: 'langgraph-ui' }));
      builder.onLoad({ filter: /.*/, namespace: 'langgraph-ui' }, () => ({
        resolveDir: dir,
        loader: 'tsx',
        contents: [`import ui from ${JSON.stringify(relative)};`, UI_RENDER_TEMPLATE, 'export const render = createRenderer(ui);'].join('\n'),
      }));
    },
  };
}

async function bundleOne(graphId: string, file: string, dir: string, shared: string[]): Promise<UiAsset[]> {
  if (path.relative(dir, file).startsWith('..')) throw new InputError(`ui.${graphId}: ${file} is outside the project`);
  let result;
  try {
    result = await build({
      entryPoints: ['entrypoint'],
      absWorkingDir: dir,
      outdir: path.join(dir, 'dist'),
      write: false,
      bundle: true,
      platform: 'browser',
      target: 'es2020',
      jsx: 'automatic',
      external: [...PROVIDED, ...shared],
      globalName: uiGlobalName(graphId),
      plugins: [entrypoint(file, dir)],
      logLevel: 'silent',
    });
  } catch (err) {
    const errors = (err as { errors?: { text: string; location?: { file: string; line: number } | null }[] }).errors ?? [];
    const text = errors.map((e) => (e.location ? `${e.location.file}:${e.location.line}: ${e.text}` : e.text)).join('; ');
    throw new InputError(`ui.${graphId}: cannot bundle ${path.relative(dir, file)}: ${text || (err as Error).message}`, { cause: err });
  }
  const encoder = new TextEncoder();
  return result.outputFiles.map((output) => {
    const basename = path.basename(output.path);
    // A shared package is taken from the page (LGUI_REQUIRE), not from a `require` the browser does not have.
    const contents =
      basename === 'entrypoint.js'
        ? encoder.encode(
            output.text.replaceAll('typeof require !== "undefined" ? require', 'typeof globalThis[Symbol.for("LGUI_REQUIRE")] !== "undefined" ? globalThis[Symbol.for("LGUI_REQUIRE")]'),
          )
        : output.contents;
    return { basename, contents };
  });
}

/**
 * Bundles each graph's UI components (langgraph.json `ui`: graph id → `.tsx` module) with esbuild for the browser, as
 * LangGraph does: React and the SDK (and `ui_config.shared`) left to the page, CSS imports in `entrypoint.css`. A
 * module that does not bundle is an InputError naming it (the revision fails).
 */
export async function bundleGraphUi(entries: Record<string, string>, options: { dir: string; shared: string[] }): Promise<Record<string, UiAsset[]>> {
  const bundles = await Promise.all(Object.entries(entries).map(async ([graphId, file]) => [graphId, await bundleOne(graphId, file, options.dir, options.shared)] as const));
  return Object.fromEntries(bundles);
}
