import type { Response } from 'express';
import { z } from 'zod';
import { metadataIn } from '@platform/agent-server-auth';
import {
  countCrons,
  createCron,
  searchCrons,
  updateCron,
  type Cron,
  type CronAssistantResolver,
  type CronRepository,
  type CronSelectField,
} from '@platform/agent-server-crons';
import type { ThreadRepository } from '@platform/agent-server-threads';
import { route, type DeclaredRoute, type SameShape } from '@platform/openapi';
import { accessOf } from '../../common/deployment-auth.middleware';
import { deleted, notFound, operationsOf, paginationHeaders, setPageHeaders } from '../../common/responses.schema';
import {
  CRON_OWN_FIELDS,
  CRON_PATCH_OWN_FIELDS,
  cronCountBody,
  cronCreateBody,
  cronParams,
  cronPatchBody,
  cronResponse,
  cronSearchBody,
  threadCronParams,
  type CronCreateBody,
} from './crons.schemas';

export interface CronsRoutesDeps {
  crons: CronRepository;
  /** The assistants repository (`resolve` takes an assistant id or a graph id). */
  assistants: CronAssistantResolver;
  /** A thread cron's thread must be one the caller may read (under the deployment's auth). */
  threads: Pick<ThreadRepository, 'get'>;
}

// What is left of a body once `own` fields are taken out, without the nulls the SDK sends for what it leaves out.
const without = (body: Record<string, unknown>, own: readonly string[]) =>
  Object.fromEntries(Object.entries(body).filter(([key, value]) => !own.includes(key) && value !== undefined && value !== null));

const select = (cron: Cron, fields: CronSelectField[] | undefined) => {
  if (!fields) return cron;
  const row: Record<string, unknown> = { ...cron, now: new Date().toISOString() };
  return Object.fromEntries(fields.map((field) => [field, row[field]]));
};

const _cron: SameShape<z.output<typeof cronResponse>, Cron> = true;

const op = operationsOf('Crons');
const found = { 200: { description: 'The cron', schema: cronResponse }, 404: notFound };
const page = { 200: { description: 'The crons (only the fields `select` names, when it does)', schema: z.array(cronResponse), headers: paginationHeaders } };

/**
 * Crons: `/runs/crons*` and `/threads/{id}/runs/crons` of the Agent Server API. Under the deployment's auth, the
 * `crons:*` handlers decide (filters on the cron's metadata), and a cron's firings run as the user who created it.
 */
export function cronsRoutes(deps: CronsRoutesDeps): DeclaredRoute[] {

  const create = async (res: Response, threadId: string | null, body: CronCreateBody) => {
    const access = accessOf(res);
    const run = without(body, CRON_OWN_FIELDS);
    const value = { payload: run, schedule: body.schedule, thread_id: threadId ?? undefined, end_time: body.end_time, metadata: { ...body.metadata } };
    await access.authorize('crons:create', value);
    // The cron runs on the thread from now on: the caller must see it (no query without a filter).
    const visible = threadId ? await access.authorize('threads:read', { thread_id: threadId }) : undefined;
    if (threadId && visible) await deps.threads.get(threadId, visible);
    return createCron(deps, {
      thread_id: threadId,
      assistant_id: body.assistant_id,
      schedule: body.schedule,
      timezone: body.timezone,
      end_time: body.end_time,
      enabled: body.enabled,
      on_run_completed: body.on_run_completed,
      metadata: metadataIn(value),
      run,
      runAs: access.caller,
    });
  };

  const createStateless = route(
    { ...op('post', '/runs/crons', 'create_cron', 'Schedule stateless runs'), body: cronCreateBody, responses: found },
    async ({ body }, _req, res) => {
        res.json(await create(res, null, body));
    },
  );

  const createOnThread = route(
    { ...op('post', '/threads/:thread_id/runs/crons', 'create_thread_cron', 'Schedule runs on a thread'), params: threadCronParams, body: cronCreateBody, responses: found },
    async ({ params, body }, _req, res) => {
        res.json(await create(res, params.thread_id, body));
    },
  );

  const search = route(
    { ...op('post', '/runs/crons/search', 'search_crons', 'Search crons'), body: cronSearchBody, responses: page },
    async ({ body }, _req, res) => {
      const limit = body.limit ?? 10;
      const offset = body.offset ?? 0;
      const visible = await accessOf(res).authorize('crons:search', { assistant_id: body.assistant_id, thread_id: body.thread_id, limit, offset });
      const { crons, total } = await searchCrons(deps, { ...body, limit, offset, sortBy: body.sort_by, sortOrder: body.sort_order }, visible);
      setPageHeaders(res, { total, offset, limit, count: crons.length });
      res.json(crons.map((cron) => select(cron, body.select)));
    },
  );

  const count = route(
    { ...op('post', '/runs/crons/count', 'count_crons', 'Count crons'), body: cronCountBody, responses: { 200: { description: 'How many crons match', schema: z.number().int() } } },
    async ({ body: filter }, _req, res) => {
      const visible = await accessOf(res).authorize('crons:search', { assistant_id: filter.assistant_id, thread_id: filter.thread_id, limit: 0, offset: 0 });
      res.json(await countCrons(deps, filter, visible));
    },
  );

  const patch = route(
    { ...op('patch', '/runs/crons/:cron_id', 'patch_cron', 'Update a cron'), params: cronParams, body: cronPatchBody, responses: found },
    async ({ params, body }, _req, res) => {
      const cronId = params.cron_id;
      const payload = without(body, CRON_PATCH_OWN_FIELDS);
      const value = { cron_id: cronId, payload, schedule: body.schedule, metadata: body.metadata };
      const visible = await accessOf(res).authorize('crons:update', value);
      const changes = {
        schedule: body.schedule,
        timezone: body.timezone,
        end_time: body.end_time,
        enabled: body.enabled,
        on_run_completed: body.on_run_completed,
        metadata: metadataIn(value),
        payload: Object.keys(payload).length > 0 ? payload : undefined,
      };
      res.json(await updateCron(deps, cronId, changes, visible));
    },
  );

  const remove = route(
    { ...op('delete', '/runs/crons/:cron_id', 'delete_cron', 'Delete a cron'), params: cronParams, responses: deleted },
    async ({ params }, _req, res) => {
      const cronId = params.cron_id;
      await deps.crons.delete(cronId, await accessOf(res).authorize('crons:delete', { cron_id: cronId }));
      res.status(204).end();
    },
  );

  return [createStateless, createOnThread, search, count, patch, remove];
}
