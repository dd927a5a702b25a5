import { Router } from 'express';
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
import { parseRequest } from '@platform/http-server';
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
}

// What is left of a body once `own` fields are taken out, without the nulls the SDK sends for what it leaves out.
const without = (body: Record<string, unknown>, own: readonly string[]) =>
  Object.fromEntries(Object.entries(body).filter(([key, value]) => !own.includes(key) && value !== undefined && value !== null));

const select = (cron: Cron, fields: CronSelectField[] | undefined) => {
  if (!fields) return cron;
  const row: Record<string, unknown> = { ...cron, now: new Date().toISOString() };
  return Object.fromEntries(fields.map((field) => [field, row[field]]));
};

/** Crons: `/runs/crons*` and `/threads/{id}/runs/crons` of the Agent Server API. */
export function cronsRoutes(deps: CronsRoutesDeps): Router {
  const router = Router();
  const idOf = (params: unknown) => parseRequest(cronParams, params, 'path').cron_id;

  const create = (threadId: string | null, body: CronCreateBody) =>
    createCron(deps, {
      thread_id: threadId,
      assistant_id: body.assistant_id,
      schedule: body.schedule,
      timezone: body.timezone,
      end_time: body.end_time,
      enabled: body.enabled,
      on_run_completed: body.on_run_completed,
      metadata: body.metadata ?? undefined,
      run: without(body, CRON_OWN_FIELDS),
    });

  router.post('/runs/crons', async (req, res) => {
    res.json(await create(null, parseRequest(cronCreateBody, req.body ?? {})));
  });

  router.post('/threads/:thread_id/runs/crons', async (req, res) => {
    const { thread_id } = parseRequest(threadCronParams, req.params, 'path');
    res.json(await create(thread_id, parseRequest(cronCreateBody, req.body ?? {})));
  });

  router.post('/runs/crons/search', async (req, res) => {
    const body = parseRequest(cronSearchBody, req.body ?? {});
    const limit = body.limit ?? 10;
    const offset = body.offset ?? 0;
    const { crons, total } = await searchCrons(deps, { ...body, limit, offset, sortBy: body.sort_by, sortOrder: body.sort_order });
    res.set('X-Pagination-Total', String(total));
    if (offset + crons.length < total) res.set('X-Pagination-Next', String(offset + limit));
    res.json(crons.map((cron) => select(cron, body.select)));
  });

  router.post('/runs/crons/count', async (req, res) => {
    res.json(await countCrons(deps, parseRequest(cronCountBody, req.body ?? {})));
  });

  router.patch('/runs/crons/:cron_id', async (req, res) => {
    const cronId = idOf(req.params);
    const body = parseRequest(cronPatchBody, req.body ?? {});
    const payload = without(body, CRON_PATCH_OWN_FIELDS);
    res.json(
      await updateCron(deps, cronId, {
        schedule: body.schedule,
        timezone: body.timezone,
        end_time: body.end_time,
        enabled: body.enabled,
        on_run_completed: body.on_run_completed,
        metadata: body.metadata,
        payload: Object.keys(payload).length > 0 ? payload : undefined,
      }),
    );
  });

  router.delete('/runs/crons/:cron_id', async (req, res) => {
    await deps.crons.delete(idOf(req.params));
    res.status(204).end();
  });

  return router;
}
