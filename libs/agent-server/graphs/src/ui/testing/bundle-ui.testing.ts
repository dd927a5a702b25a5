// Run by bundle-graph-ui.spec.ts as plain Node on an esbuild bundle: Tailwind's compiler registers module hooks
// when it loads, which Jest's sandbox refuses. Bundles `ui` entries (JSON argv[2]) of the project in argv[3] and
// prints the assets as one JSON line (graph id → basename → text).
import { bundleGraphUi } from '../bundle-graph-ui';

async function main(entries: Record<string, string>, dir: string): Promise<void> {
  const bundles = await bundleGraphUi(entries, { dir, shared: [] });
  const decoder = new TextDecoder();
  const text = Object.fromEntries(
    Object.entries(bundles).map(([graphId, assets]) => [graphId, Object.fromEntries(assets.map((asset) => [asset.basename, decoder.decode(asset.contents)]))]),
  );
  process.stdout.write(`${JSON.stringify(text)}\n`);
}

main(JSON.parse(process.argv[2]) as Record<string, string>, process.argv[3]).catch((err: Error) => {
  process.stdout.write(`${JSON.stringify({ error: err.message })}\n`);
  process.exitCode = 1;
});
