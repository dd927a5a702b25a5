import { Router } from 'express';
import {
  createAssistant,
  deleteAssistant,
  getAssistantGraph,
  getAssistantSchemas,
  getAssistantSubgraphs,
  listAssistantVersions,
  searchAssistants,
  selectAssistantFields,
  setLatestAssistantVersion,
  updateAssistant,
  type AssistantRepository,
} from '@platform/agent-server-assistants';
import type { GraphRegistry } from '@platform/agent-server-graphs';
import { InputError } from '@platform/errors';
import { parseRequest } from '@platform/http-server';
import { countBody, createBody, deleteQuery, graphQuery, latestBody, patchBody, searchBody, subgraphsQuery, versionsBody } from './assistants.schemas';

export interface AssistantsRoutesDeps {
  assistants: AssistantRepository;
  registry: GraphRegistry;
  /** Deletes the threads whose `metadata.assistant_id` is the given assistant's (`DELETE ...?delete_threads=true`). */
  deleteThreadsOf?: (assistantId: string) => Promise<number>;
}

/** `/assistants*` of the Agent Server API. Wherever an assistant id is taken, a graph id names its system assistant. */
export function assistantsRoutes(deps: AssistantsRoutesDeps): Router {
  const { assistants } = deps;
  const router = Router();

  router.post('/assistants', async (req, res) => {
    res.json(await createAssistant(deps, parseRequest(createBody, req.body ?? {})));
  });

  router.post('/assistants/search', async (req, res) => {
    const body = parseRequest(searchBody, req.body ?? {});
    const limit = body.limit ?? 10;
    const offset = body.offset ?? 0;
    const query = { metadata: body.metadata, graph_id: body.graph_id, name: body.name, limit, offset, sortBy: body.sort_by, sortOrder: body.sort_order };
    const { items, total } = await searchAssistants(assistants, query);
    res.set('X-Pagination-Total', String(total));
    if (offset + items.length < total) res.set('X-Pagination-Next', String(offset + limit));
    res.json(items.map((assistant) => selectAssistantFields(assistant, body.select)));
  });

  router.post('/assistants/count', async (req, res) => {
    res.json(await assistants.count(parseRequest(countBody, req.body ?? {})));
  });

  router.get('/assistants/:assistant_id', async (req, res) => {
    res.json(await assistants.resolve(req.params.assistant_id));
  });

  router.patch('/assistants/:assistant_id', async (req, res) => {
    res.json(await updateAssistant(deps, req.params.assistant_id, parseRequest(patchBody, req.body ?? {})));
  });

  router.delete('/assistants/:assistant_id', async (req, res) => {
    const { delete_threads } = parseRequest(deleteQuery, req.query, 'query');
    if (delete_threads && !deps.deleteThreadsOf) throw new InputError('delete_threads is not supported by this server');
    await deleteAssistant(deps, req.params.assistant_id, { deleteThreads: delete_threads });
    res.status(204).end();
  });

  router.get('/assistants/:assistant_id/graph', async (req, res) => {
    const { xray } = parseRequest(graphQuery, req.query, 'query');
    res.json(await getAssistantGraph(deps, req.params.assistant_id, { xray }));
  });

  router.get('/assistants/:assistant_id/schemas', async (req, res) => {
    res.json(await getAssistantSchemas(deps, req.params.assistant_id));
  });

  router.get('/assistants/:assistant_id/subgraphs', async (req, res) => {
    const { recurse } = parseRequest(subgraphsQuery, req.query, 'query');
    res.json(await getAssistantSubgraphs(deps, req.params.assistant_id, { recurse }));
  });

  router.get('/assistants/:assistant_id/subgraphs/:namespace', async (req, res) => {
    const { recurse } = parseRequest(subgraphsQuery, req.query, 'query');
    res.json(await getAssistantSubgraphs(deps, req.params.assistant_id, { namespace: req.params.namespace, recurse }));
  });

  router.post('/assistants/:assistant_id/versions', async (req, res) => {
    const body = parseRequest(versionsBody, req.body ?? {});
    res.json(await listAssistantVersions(assistants, req.params.assistant_id, { metadata: body.metadata, limit: body.limit ?? 10, offset: body.offset ?? 0 }));
  });

  router.post('/assistants/:assistant_id/latest', async (req, res) => {
    const { version } = parseRequest(latestBody, req.body ?? {});
    res.json(await setLatestAssistantVersion(assistants, req.params.assistant_id, version));
  });

  return router;
}
