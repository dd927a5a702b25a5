import { randomUUID } from 'node:crypto';
import type { Response } from 'express';
import { z } from 'zod';
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
  type Assistant,
  type AssistantRepository,
} from '@platform/agent-server-assistants';
import { metadataIn, type AccessFilter } from '@platform/agent-server-auth';
import type { GraphRegistry } from '@platform/agent-server-graphs';
import { InputError } from '@platform/errors';
import { route, type DeclaredRoute, type SameShape } from '@platform/openapi';
import { accessOf } from '../../common/deployment-auth.middleware';
import { deleted, errorResponse, notFound, operationsOf, paginationHeaders, setPageHeaders } from '../../common/responses.schema';
import {
  assistantParams,
  assistantResponse,
  countBody,
  createBody,
  deleteQuery,
  graphDrawingResponse,
  graphQuery,
  graphSchemasResponse,
  latestBody,
  patchBody,
  searchBody,
  subgraphNamespaceParams,
  subgraphsQuery,
  subgraphsResponse,
  versionResponse,
  versionsBody,
} from './assistants.schemas';

export interface AssistantsRoutesDeps {
  assistants: AssistantRepository;
  registry: GraphRegistry;
  /** Deletes the threads whose `metadata.assistant_id` is the given assistant's (`DELETE ...?delete_threads=true`). */
  deleteThreadsOf?: (assistantId: string, visible?: AccessFilter) => Promise<number>;
}

const _assistant: SameShape<z.output<typeof assistantResponse>, Assistant> = true;

const op = operationsOf('Assistants');
const found = { 200: { description: 'The assistant', schema: assistantResponse }, 404: notFound };
const created = { ...found, 409: { description: 'The assistant id is taken', schema: errorResponse } };
const page = { 200: { description: 'The assistants (only the fields `select` names, when it does)', schema: z.array(assistantResponse), headers: paginationHeaders } };
const drawing = { 200: { description: 'Its nodes and edges', schema: graphDrawingResponse }, 404: notFound };
const schemasFound = { 200: { description: 'The schemas', schema: graphSchemasResponse }, 404: notFound };
const subgraphsFound = { 200: { description: 'The schemas by namespace', schema: subgraphsResponse }, 404: notFound };
const versionsFound = { 200: { description: 'The versions, newest first', schema: z.array(versionResponse) }, 404: notFound };

/**
 * `/assistants*` of the Agent Server API. Wherever an assistant id is taken, a graph id names its system assistant.
 * Under the deployment's auth, each route asks its handler (`assistants:create`, `assistants:read`, ...).
 */
export function assistantsRoutes(deps: AssistantsRoutesDeps): DeclaredRoute[] {
  const { assistants } = deps;
  const readable = (res: Response, assistantId: string) => accessOf(res).authorize('assistants:read', { assistant_id: assistantId });
  const searchable = (res: Response, filter: { graph_id?: string; metadata?: Record<string, unknown> }, limit: number, offset: number) =>
    accessOf(res).authorize('assistants:search', { graph_id: filter.graph_id, metadata: filter.metadata, limit, offset });

  const create = route(
    { ...op('post', '/assistants', 'create_assistant', 'Create an assistant'), body: createBody, responses: created },
    async ({ body }, _req, res) => {
      const value = { ...body, assistant_id: body.assistant_id ?? randomUUID(), metadata: { ...body.metadata } };
      const visible = await accessOf(res).authorize('assistants:create', value);
      res.json(await createAssistant(deps, { ...body, assistant_id: value.assistant_id, metadata: metadataIn(value) }, visible));
    },
  );

  const search = route(
    { ...op('post', '/assistants/search', 'search_assistants', 'Search assistants'), body: searchBody, responses: page },
    async ({ body }, _req, res) => {
      const limit = body.limit ?? 10;
      const offset = body.offset ?? 0;
      const query = { metadata: body.metadata, graph_id: body.graph_id, name: body.name, limit, offset, sortBy: body.sort_by, sortOrder: body.sort_order };
      const { items, total } = await searchAssistants(assistants, query, await searchable(res, query, limit, offset));
      setPageHeaders(res, { total, offset, limit, count: items.length });
      res.json(items.map((assistant) => selectAssistantFields(assistant, body.select)));
    },
  );

  const count = route(
    { ...op('post', '/assistants/count', 'count_assistants', 'Count assistants'), body: countBody, responses: { 200: { description: 'How many assistants match', schema: z.number().int() } } },
    async ({ body: filter }, _req, res) => {
      res.json(await assistants.count(filter, await searchable(res, filter, 0, 0)));
    },
  );

  const get = route(
    { ...op('get', '/assistants/:assistant_id', 'get_assistant', 'Get an assistant'), params: assistantParams, responses: found },
    async ({ params }, _req, res) => {
      const assistantId = params.assistant_id;
      res.json(await assistants.resolve(assistantId, await readable(res, assistantId)));
    },
  );

  const patch = route(
    { ...op('patch', '/assistants/:assistant_id', 'patch_assistant', 'Update an assistant (saved as a new version)'), params: assistantParams, body: patchBody, responses: found },
    async ({ params, body }, _req, res) => {
      const assistantId = params.assistant_id;
      const value = { ...body, assistant_id: assistantId };
      const visible = await accessOf(res).authorize('assistants:update', value);
      res.json(await updateAssistant(deps, assistantId, { ...body, metadata: metadataIn(value) }, visible));
    },
  );

  const remove = route(
    { ...op('delete', '/assistants/:assistant_id', 'delete_assistant', 'Delete an assistant and its versions'), params: assistantParams, query: deleteQuery, responses: deleted },
    async ({ params, query }, _req, res) => {
      const assistantId = params.assistant_id;
      const { delete_threads } = query;
      if (delete_threads && !deps.deleteThreadsOf) throw new InputError('delete_threads is not supported by this server');
      const access = accessOf(res);
      const visible = await access.authorize('assistants:delete', { assistant_id: assistantId });
      // Its threads go only as far as the caller may delete threads (others' threads may have run this assistant).
      const threadsVisible = delete_threads ? await access.authorize('threads:delete', { assistant_id: assistantId }) : undefined;
      await deleteAssistant(deps, assistantId, { deleteThreads: delete_threads, visible, threadsVisible });
      res.status(204).end();
    },
  );

  const graph = route(
    { ...op('get', '/assistants/:assistant_id/graph', 'get_assistant_graph', "Draw the assistant's graph"), params: assistantParams, query: graphQuery, responses: drawing },
    async ({ params, query }, _req, res) => {
      const assistantId = params.assistant_id;
      const { xray } = query;
      res.json(await getAssistantGraph(deps, assistantId, { xray }, await readable(res, assistantId)));
    },
  );

  const schemas = route(
    { ...op('get', '/assistants/:assistant_id/schemas', 'get_assistant_schemas', "JSON Schemas of the graph's input, output, state, config and context"), params: assistantParams, responses: schemasFound },
    async ({ params }, _req, res) => {
      const assistantId = params.assistant_id;
      res.json(await getAssistantSchemas(deps, assistantId, await readable(res, assistantId)));
    },
  );

  const subgraphs = route(
    { ...op('get', '/assistants/:assistant_id/subgraphs', 'get_assistant_subgraphs', 'Schemas of the subgraphs, by namespace'), params: assistantParams, query: subgraphsQuery, responses: subgraphsFound },
    async ({ params, query }, _req, res) => {
      const assistantId = params.assistant_id;
      const { recurse } = query;
      res.json(await getAssistantSubgraphs(deps, assistantId, { recurse }, await readable(res, assistantId)));
    },
  );

  const subgraph = route(
    { ...op('get', '/assistants/:assistant_id/subgraphs/:namespace', 'get_assistant_subgraphs_by_namespace', 'Schemas of one subgraph'), params: subgraphNamespaceParams, query: subgraphsQuery, responses: subgraphsFound },
    async ({ params, query }, _req, res) => {
      const assistantId = params.assistant_id;
      const { recurse } = query;
      res.json(await getAssistantSubgraphs(deps, assistantId, { namespace: params.namespace, recurse }, await readable(res, assistantId)));
    },
  );

  const versions = route(
    { ...op('post', '/assistants/:assistant_id/versions', 'list_assistant_versions', 'List versions, newest first'), params: assistantParams, body: versionsBody, responses: versionsFound },
    async ({ params, body }, _req, res) => {
      const assistantId = params.assistant_id;
      const query = { metadata: body.metadata, limit: body.limit ?? 10, offset: body.offset ?? 0 };
      res.json(await listAssistantVersions(assistants, assistantId, query, await readable(res, assistantId)));
    },
  );

  const latest = route(
    { ...op('post', '/assistants/:assistant_id/latest', 'set_latest_assistant_version', 'Make a saved version current'), params: assistantParams, body: latestBody, responses: found },
    async ({ params, body }, _req, res) => {
      const assistantId = params.assistant_id;
      const { version } = body;
      const visible = await accessOf(res).authorize('assistants:update', { assistant_id: assistantId, version });
      res.json(await setLatestAssistantVersion(assistants, assistantId, version, visible));
    },
  );

  return [create, search, count, get, patch, remove, graph, schemas, subgraphs, subgraph, versions, latest];
}
