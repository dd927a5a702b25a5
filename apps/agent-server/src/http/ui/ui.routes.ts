import { Router } from 'express';
import { getMimeType } from 'hono/utils/mime';
import { z } from 'zod';
import { uiGlobalName, type UiAsset } from '@platform/agent-server-graphs';
import { NotFoundError } from '@platform/errors';
import { parseRequest, publicBaseUrlOf } from '@platform/http-server';

const componentRequest = z.object({ name: z.string() });

/**
 * Generative UI (langgraph.json `ui`), as `LoadExternalComponent` of @langchain/langgraph-sdk/react-ui loads it:
 * `POST /ui/{graph_id}` `{name}` answers the HTML that loads the graph's bundle and renders the named component in
 * the page's shadow root (`{{shadowRootId}}`, which the client fills in); `GET /ui/{graph_id}/{file}` serves the bundle.
 */
export function uiRoutes(bundles: Record<string, UiAsset[]>): Router {
  const router = Router();
  const bundleOf = (graphId: string) => {
    const files = bundles[graphId];
    if (!files?.length) throw new NotFoundError(`UI not found for agent "${graphId}"`);
    return files;
  };

  router.post('/ui/:graph_id', (req, res) => {
    const graphId = req.params.graph_id;
    const { name } = parseRequest(componentRequest, req.body ?? {});
    const files = bundleOf(graphId);
    const base = `${publicBaseUrlOf(req)}/ui/${encodeURIComponent(graphId)}`;
    const html = files.filter((file) => file.basename.endsWith('.css')).map((file) => `<link rel="stylesheet" href="${base}/${file.basename}" />`);
    const script = files.find((file) => file.basename.endsWith('.js'));
    if (script) {
      html.push(`<script src="${base}/${script.basename}" onload='${uiGlobalName(graphId)}.render(${JSON.stringify(name).replace(/'/g, '&#39;')}, "{{shadowRootId}}")'></script>`);
    }
    res.type('text/html').send(html.join('\n'));
  });

  router.get('/ui/:graph_id/:basename', (req, res) => {
    const file = bundles[req.params.graph_id]?.find((item) => item.basename === req.params.basename);
    if (!file) throw new NotFoundError('File not found');
    res.set('content-type', getMimeType(file.basename) ?? 'text/plain').send(Buffer.from(file.contents));
  });
  return router;
}
