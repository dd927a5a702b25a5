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
import { errorResponse, notFound, paginationHeaders } from '../../common/responses.schema';
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

const tags = ['Assistants'];
const assistantAnswer = { description: 'The assistant', schema: assistantResponse };

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
    {
      method: 'post',
      path: '/assistants',
      operationId: 'create_assistant',
      tags,
      summary: 'Create an assistant',
      body: createBody,
      responses: { 200: assistantAnswer, 404: notFound, 409: { description: 'The assistant id is taken', schema: errorResponse } },
    },
    async ({ body }, _req, res) => {
      const value = { ...body, assistant_id: body.assistant_id ?? randomUUID(), metadata: { ...body.metadata } };
      const visible = await accessOf(res).authorize('assistants:create', value);
      res.json(await createAssistant(deps, { ...body, assistant_id: value.assistant_id, metadata: metadataIn(value) }, visible));
    },
  );

  const search = route(
    {
      method: 'post',
      path: '/assistants/search',
      operationId: 'search_assistants',
      tags,
      summary: 'Search assistants',
      body: searchBody,
      responses: { 200: { description: 'The assistants (only the fields `select` names, when it does)', schema: z.array(assistantResponse), headers: paginationHeaders } },
    },
    async ({ body }, _req, res) => {
      const limit = body.limit ?? 10;
      const offset = body.offset ?? 0;
      const query = { metadata: body.metadata, graph_id: body.graph_id, name: body.name, limit, offset, sortBy: body.sort_by, sortOrder: body.sort_order };
      const { items, total } = await searchAssistants(assistants, query, await searchable(res, query, limit, offset));
      res.set('X-Pagination-Total', String(total));
      if (offset + items.length < total) res.set('X-Pagination-Next', String(offset + limit));
      res.json(items.map((assistant) => selectAssistantFields(assistant, body.select)));
    },
  );

  const count = route(
    {
      method: 'post',
      path: '/assistants/count',
      operationId: 'count_assistants',
      tags,
      summary: 'Count assistants',
      body: countBody,
      responses: { 200: { description: 'How many assistants match', schema: z.number().int() } },
    },
    async ({ body: filter }, _req, res) => {
      res.json(await assistants.count(filter, await searchable(res, filter, 0, 0)));
    },
  );

  const get = route(
    {
      method: 'get',
      path: '/assistants/:assistant_id',
      operationId: 'get_assistant',
      tags,
      summary: 'Get an assistant',
      params: assistantParams,
      responses: { 200: assistantAnswer, 404: notFound },
    },
    async ({ params }, _req, res) => {
      const assistantId = params.assistant_id;
      res.json(await assistants.resolve(assistantId, await readable(res, assistantId)));
    },
  );

  const patch = route(
    {
      method: 'patch',
      path: '/assistants/:assistant_id',
      operationId: 'patch_assistant',
      tags,
      summary: 'Update an assistant (saved as a new version)',
      params: assistantParams,
      body: patchBody,
      responses: { 200: assistantAnswer, 404: notFound },
    },
    async ({ params, body }, _req, res) => {
      const assistantId = params.assistant_id;
      const value = { ...body, assistant_id: assistantId };
      const visible = await accessOf(res).authorize('assistants:update', value);
      res.json(await updateAssistant(deps, assistantId, { ...body, metadata: metadataIn(value) }, visible));
    },
  );

  const remove = route(
    {
      method: 'delete',
      path: '/assistants/:assistant_id',
      operationId: 'delete_assistant',
      tags,
      summary: 'Delete an assistant and its versions',
      params: assistantParams,
      query: deleteQuery,
      responses: { 204: { description: 'Deleted' }, 404: notFound },
    },
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
    {
      method: 'get',
      path: '/assistants/:assistant_id/graph',
      operationId: 'get_assistant_graph',
      tags,
      summary: "Draw the assistant's graph",
      params: assistantParams,
      query: graphQuery,
      responses: { 200: { description: 'Its nodes and edges', schema: graphDrawingResponse }, 404: notFound },
    },
    async ({ params, query }, _req, res) => {
      const assistantId = params.assistant_id;
      const { xray } = query;
      res.json(await getAssistantGraph(deps, assistantId, { xray }, await readable(res, assistantId)));
    },
  );

  const schemas = route(
    {
      method: 'get',
      path: '/assistants/:assistant_id/schemas',
      operationId: 'get_assistant_schemas',
      tags,
      summary: "JSON Schemas of the graph's input, output, state, config and context",
      params: assistantParams,
      responses: { 200: { description: 'The schemas', schema: graphSchemasResponse }, 404: notFound },
    },
    async ({ params }, _req, res) => {
      const assistantId = params.assistant_id;
      res.json(await getAssistantSchemas(deps, assistantId, await readable(res, assistantId)));
    },
  );

  const subgraphs = route(
    {
      method: 'get',
      path: '/assistants/:assistant_id/subgraphs',
      operationId: 'get_assistant_subgraphs',
      tags,
      summary: 'Schemas of the subgraphs, by namespace',
      params: assistantParams,
      query: subgraphsQuery,
      responses: { 200: { description: 'The schemas by namespace', schema: subgraphsResponse }, 404: notFound },
    },
    async ({ params, query }, _req, res) => {
      const assistantId = params.assistant_id;
      const { recurse } = query;
      res.json(await getAssistantSubgraphs(deps, assistantId, { recurse }, await readable(res, assistantId)));
    },
  );

  const subgraph = route(
    {
      method: 'get',
      path: '/assistants/:assistant_id/subgraphs/:namespace',
      operationId: 'get_assistant_subgraphs_by_namespace',
      tags,
      summary: 'Schemas of one subgraph',
      params: subgraphNamespaceParams,
      query: subgraphsQuery,
      responses: { 200: { description: 'The schemas by namespace', schema: subgraphsResponse }, 404: notFound },
    },
    async ({ params, query }, _req, res) => {
      const assistantId = params.assistant_id;
      const { recurse } = query;
      res.json(await getAssistantSubgraphs(deps, assistantId, { namespace: params.namespace, recurse }, await readable(res, assistantId)));
    },
  );

  const versions = route(
    {
      method: 'post',
      path: '/assistants/:assistant_id/versions',
      operationId: 'list_assistant_versions',
      tags,
      summary: 'List versions, newest first',
      params: assistantParams,
      body: versionsBody,
      responses: { 200: { description: 'The versions', schema: z.array(versionResponse) }, 404: notFound },
    },
    async ({ params, body }, _req, res) => {
      const assistantId = params.assistant_id;
      const query = { metadata: body.metadata, limit: body.limit ?? 10, offset: body.offset ?? 0 };
      res.json(await listAssistantVersions(assistants, assistantId, query, await readable(res, assistantId)));
    },
  );

  const latest = route(
    {
      method: 'post',
      path: '/assistants/:assistant_id/latest',
      operationId: 'set_latest_assistant_version',
      tags,
      summary: 'Make a saved version current',
      params: assistantParams,
      body: latestBody,
      responses: { 200: assistantAnswer, 404: notFound },
    },
    async ({ params, body }, _req, res) => {
      const assistantId = params.assistant_id;
      const { version } = body;
      const visible = await accessOf(res).authorize('assistants:update', { assistant_id: assistantId, version });
      res.json(await setLatestAssistantVersion(assistants, assistantId, version, visible));
    },
  );

  return [create, search, count, get, patch, remove, graph, schemas, subgraphs, subgraph, versions, latest];
}
