import { randomUUID } from 'node:crypto';
import { Router, type Response } from 'express';
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
import { metadataIn, type AccessFilter } from '@platform/agent-server-auth';
import type { GraphRegistry } from '@platform/agent-server-graphs';
import { InputError } from '@platform/errors';
import { parseRequest } from '@platform/http-server';
import { accessOf } from '../../common/deployment-auth.middleware';
import { countBody, createBody, deleteQuery, graphQuery, latestBody, patchBody, searchBody, subgraphsQuery, versionsBody } from './assistants.schemas';

export interface AssistantsRoutesDeps {
  assistants: AssistantRepository;
  registry: GraphRegistry;
  /** Deletes the threads whose `metadata.assistant_id` is the given assistant's (`DELETE ...?delete_threads=true`). */
  deleteThreadsOf?: (assistantId: string, visible?: AccessFilter) => Promise<number>;
}

/**
 * `/assistants*` of the Agent Server API. Wherever an assistant id is taken, a graph id names its system assistant.
 * Under the deployment's auth, each route asks its handler (`assistants:create`, `assistants:read`, ...).
 */
export function assistantsRoutes(deps: AssistantsRoutesDeps): Router {
  const { assistants } = deps;
  const router = Router();
  const readable = (res: Response, assistantId: string) => accessOf(res).authorize('assistants:read', { assistant_id: assistantId });
  const searchable = (res: Response, filter: { graph_id?: string; metadata?: Record<string, unknown> }, limit: number, offset: number) =>
    accessOf(res).authorize('assistants:search', { graph_id: filter.graph_id, metadata: filter.metadata, limit, offset });

  router.post('/assistants', async (req, res) => {
    const body = parseRequest(createBody, req.body ?? {});
    const value = { ...body, assistant_id: body.assistant_id ?? randomUUID(), metadata: { ...body.metadata } };
    const visible = await accessOf(res).authorize('assistants:create', value);
    res.json(await createAssistant(deps, { ...body, assistant_id: value.assistant_id, metadata: metadataIn(value) }, visible));
  });

  router.post('/assistants/search', async (req, res) => {
    const body = parseRequest(searchBody, req.body ?? {});
    const limit = body.limit ?? 10;
    const offset = body.offset ?? 0;
    const query = { metadata: body.metadata, graph_id: body.graph_id, name: body.name, limit, offset, sortBy: body.sort_by, sortOrder: body.sort_order };
    const { items, total } = await searchAssistants(assistants, query, await searchable(res, query, limit, offset));
    res.set('X-Pagination-Total', String(total));
    if (offset + items.length < total) res.set('X-Pagination-Next', String(offset + limit));
    res.json(items.map((assistant) => selectAssistantFields(assistant, body.select)));
  });

  router.post('/assistants/count', async (req, res) => {
    const filter = parseRequest(countBody, req.body ?? {});
    res.json(await assistants.count(filter, await searchable(res, filter, 0, 0)));
  });

  router.get('/assistants/:assistant_id', async (req, res) => {
    const assistantId = req.params.assistant_id;
    res.json(await assistants.resolve(assistantId, await readable(res, assistantId)));
  });

  router.patch('/assistants/:assistant_id', async (req, res) => {
    const assistantId = req.params.assistant_id;
    const body = parseRequest(patchBody, req.body ?? {});
    const value = { ...body, assistant_id: assistantId };
    const visible = await accessOf(res).authorize('assistants:update', value);
    res.json(await updateAssistant(deps, assistantId, { ...body, metadata: metadataIn(value) }, visible));
  });

  router.delete('/assistants/:assistant_id', async (req, res) => {
    const assistantId = req.params.assistant_id;
    const { delete_threads } = parseRequest(deleteQuery, req.query, 'query');
    if (delete_threads && !deps.deleteThreadsOf) throw new InputError('delete_threads is not supported by this server');
    const access = accessOf(res);
    const visible = await access.authorize('assistants:delete', { assistant_id: assistantId });
    // Its threads go only as far as the caller may delete threads (others' threads may have run this assistant).
    const threadsVisible = delete_threads ? await access.authorize('threads:delete', { assistant_id: assistantId }) : undefined;
    await deleteAssistant(deps, assistantId, { deleteThreads: delete_threads, visible, threadsVisible });
    res.status(204).end();
  });

  router.get('/assistants/:assistant_id/graph', async (req, res) => {
    const assistantId = req.params.assistant_id;
    const { xray } = parseRequest(graphQuery, req.query, 'query');
    res.json(await getAssistantGraph(deps, assistantId, { xray }, await readable(res, assistantId)));
  });

  router.get('/assistants/:assistant_id/schemas', async (req, res) => {
    const assistantId = req.params.assistant_id;
    res.json(await getAssistantSchemas(deps, assistantId, await readable(res, assistantId)));
  });

  router.get('/assistants/:assistant_id/subgraphs', async (req, res) => {
    const assistantId = req.params.assistant_id;
    const { recurse } = parseRequest(subgraphsQuery, req.query, 'query');
    res.json(await getAssistantSubgraphs(deps, assistantId, { recurse }, await readable(res, assistantId)));
  });

  router.get('/assistants/:assistant_id/subgraphs/:namespace', async (req, res) => {
    const assistantId = req.params.assistant_id;
    const { recurse } = parseRequest(subgraphsQuery, req.query, 'query');
    res.json(await getAssistantSubgraphs(deps, assistantId, { namespace: req.params.namespace, recurse }, await readable(res, assistantId)));
  });

  router.post('/assistants/:assistant_id/versions', async (req, res) => {
    const assistantId = req.params.assistant_id;
    const body = parseRequest(versionsBody, req.body ?? {});
    const query = { metadata: body.metadata, limit: body.limit ?? 10, offset: body.offset ?? 0 };
    res.json(await listAssistantVersions(assistants, assistantId, query, await readable(res, assistantId)));
  });

  router.post('/assistants/:assistant_id/latest', async (req, res) => {
    const assistantId = req.params.assistant_id;
    const { version } = parseRequest(latestBody, req.body ?? {});
    const visible = await accessOf(res).authorize('assistants:update', { assistant_id: assistantId, version });
    res.json(await setLatestAssistantVersion(assistants, assistantId, version, visible));
  });

  return router;
}
