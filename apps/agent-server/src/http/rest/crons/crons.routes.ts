import { Router, type Response } from 'express';
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
import { parseRequest } from '@platform/http-server';
import { accessOf } from '../../common/deployment-auth.middleware';
import {
  CRON_OWN_FIELDS,
  CRON_PATCH_OWN_FIELDS,
  cronCountBody,
  cronCreateBody,
  cronParams,
  cronPatchBody,
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

/**
 * Crons: `/runs/crons*` and `/threads/{id}/runs/crons` of the Agent Server API. Under the deployment's auth, the
 * `crons:*` handlers decide (filters on the cron's metadata), and a cron's firings run as the user who created it.
 */
export function cronsRoutes(deps: CronsRoutesDeps): Router {
  const router = Router();
  const idOf = (params: unknown) => parseRequest(cronParams, params, 'path').cron_id;

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

  router.post('/runs/crons', async (req, res) => {
    res.json(await create(res, null, parseRequest(cronCreateBody, req.body ?? {})));
  });

  router.post('/threads/:thread_id/runs/crons', async (req, res) => {
    const { thread_id } = parseRequest(threadCronParams, req.params, 'path');
    res.json(await create(res, thread_id, parseRequest(cronCreateBody, req.body ?? {})));
  });

  router.post('/runs/crons/search', async (req, res) => {
    const body = parseRequest(cronSearchBody, req.body ?? {});
    const limit = body.limit ?? 10;
    const offset = body.offset ?? 0;
    const visible = await accessOf(res).authorize('crons:search', { assistant_id: body.assistant_id, thread_id: body.thread_id, limit, offset });
    const { crons, total } = await searchCrons(deps, { ...body, limit, offset, sortBy: body.sort_by, sortOrder: body.sort_order }, visible);
    res.set('X-Pagination-Total', String(total));
    if (offset + crons.length < total) res.set('X-Pagination-Next', String(offset + limit));
    res.json(crons.map((cron) => select(cron, body.select)));
  });

  router.post('/runs/crons/count', async (req, res) => {
    const filter = parseRequest(cronCountBody, req.body ?? {});
    const visible = await accessOf(res).authorize('crons:search', { assistant_id: filter.assistant_id, thread_id: filter.thread_id, limit: 0, offset: 0 });
    res.json(await countCrons(deps, filter, visible));
  });

  router.patch('/runs/crons/:cron_id', async (req, res) => {
    const cronId = idOf(req.params);
    const body = parseRequest(cronPatchBody, req.body ?? {});
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
  });

  router.delete('/runs/crons/:cron_id', async (req, res) => {
    const cronId = idOf(req.params);
    await deps.crons.delete(cronId, await accessOf(res).authorize('crons:delete', { cron_id: cronId }));
    res.status(204).end();
  });

  return router;
}
