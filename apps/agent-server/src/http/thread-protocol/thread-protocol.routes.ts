import type { Response } from 'express';
import { z } from 'zod';
import type { RunService } from '@platform/agent-server-runs';
import {
  inputRespondRequest,
  isProtocolSeq,
  matchesFilter,
  parseInputRespond,
  parseRunStart,
  protocolCommandSchema,
  runStartRequest,
} from '@platform/agent-server-thread-protocol';
import type { ThreadRepository, ThreadStateService } from '@platform/agent-server-threads';
import { route, type DeclaredRoute, type SameShape } from '@platform/openapi';
import { accessOf } from '../common/deployment-auth.middleware';
import { eventStream, lastEventIdHeader, notFound, operationsOf, uuidParam } from '../common/responses.schema';
import { SseWriter } from '../common/sse';

export interface ThreadProtocolRoutesDeps {
  runs: RunService;
  threads: { threads: ThreadRepository; state: ThreadStateService };
  /** A `: heartbeat` comment after this long without an event. */
  sseHeartbeatMs: number;
}

const threadPath = z.object({ thread_id: uuidParam('Thread id') });
const streamBody = z.looseObject({
  channels: z.array(z.string().min(1)).min(1),
  namespaces: z.array(z.array(z.string())).nullish(),
  depth: z.number().int().min(0).nullish(),
  since: z.number().int().min(0).nullish(),
});

type CommandReply =
  | { type: 'success'; id: number; result: Record<string, unknown>; meta?: Record<string, unknown> }
  | { type: 'error'; id: number | null; error: string; message: string; meta?: Record<string, unknown> };

const meta = z.record(z.string(), z.unknown()).optional().describe('`{thread_id, applied_through_seq}`');
const commandReply = z.union([
  z.object({ type: z.literal('success'), id: z.number().int(), result: z.record(z.string(), z.unknown()), meta }),
  z.object({ type: z.literal('error'), id: z.number().int().nullable(), error: z.string(), message: z.string(), meta }),
]);
const _reply: SameShape<z.output<typeof commandReply>, CommandReply> = true;

const op = operationsOf('Threads');

const failure = (id: number, error: string, message: string): CommandReply => ({ type: 'error', id, error, message });

// Last-Event-ID as a protocol seq (a raw SSE client resuming); anything else is no position.
function lastEventSeq(header: string | undefined): number | undefined {
  const seq = header !== undefined && /^\d+$/.test(header.trim()) ? Number(header.trim()) : undefined;
  return isProtocolSeq(seq) ? seq : undefined;
}

/**
 * The thread-centric streaming protocol of SDK 1.15+ (`client.threads.stream()`, `RemoteGraph.streamEvents(...,
 * { version: "v3" })`): `POST /threads/{id}/commands` answers one command (`run.start`, `input.respond`,
 * `state.get`); `POST /threads/{id}/stream/events` streams the thread's runs from the durable event log as protocol
 * events, filtered per connection, resumable from any replica with `since` (or `Last-Event-ID`). Under the
 * deployment's auth the thread is checked exactly as the run and thread routes check it.
 */
export function threadProtocolRoutes(deps: ThreadProtocolRoutesDeps): DeclaredRoute[] {
  const { runs } = deps;

  // Whether the thread waits on interrupts (its runs' outcome, cached on the thread); false when it does not exist yet.
  const interrupted = (threadId: string) =>
    deps.threads.threads.get(threadId).then(
      (thread) => thread.status === 'interrupted',
      () => false,
    );

  const command = async (res: Response, threadId: string, id: number, method: string, params: Record<string, unknown> | null | undefined): Promise<CommandReply> => {
    switch (method) {
      case 'run.start': {
        const parsed = parseRunStart(params);
        if (!parsed.ok) return failure(id, 'invalid_argument', parsed.message);
        const run = await runs.create({ threadId }, runStartRequest(parsed.value, await interrupted(threadId)), accessOf(res));
        return { type: 'success', id, result: { run_id: run.run_id } };
      }
      case 'input.respond': {
        const parsed = parseInputRespond(params);
        if (!parsed.ok) return failure(id, 'invalid_argument', parsed.message);
        const visible = await accessOf(res).authorize('threads:read', { thread_id: threadId });
        const [latest] = await runs.list(threadId, { limit: 1, offset: 0 }, visible);
        if (!latest) return failure(id, 'no_such_run', 'Thread has no active assistant; call run.start first.');
        if (!(await interrupted(threadId))) return failure(id, 'invalid_argument', 'input.respond can only be used while the run is interrupted.');
        await runs.create({ threadId }, inputRespondRequest(parsed.value, latest.assistant_id), accessOf(res));
        return { type: 'success', id, result: {} };
      }
      case 'state.get': {
        const namespace = (params as { namespace?: unknown } | null)?.namespace;
        if (Array.isArray(namespace) && namespace.length > 0) return failure(id, 'not_supported', 'state.get serves the root namespace only');
        const visible = await accessOf(res).authorize('threads:read', { thread_id: threadId });
        if (visible) await deps.threads.threads.get(threadId, visible);
        const state = await deps.threads.state.getState(threadId);
        const keys = (params as { keys?: unknown } | null)?.keys;
        const values = state.values as Record<string, unknown>;
        const picked = Array.isArray(keys) ? Object.fromEntries(Object.entries(values ?? {}).filter(([key]) => keys.includes(key))) : values;
        const checkpoint = state.checkpoint as { checkpoint_id?: string; checkpoint_ns?: string } | null;
        return {
          type: 'success',
          id,
          result: { values: picked, ...(checkpoint?.checkpoint_id ? { checkpoint: { id: checkpoint.checkpoint_id, ns: checkpoint.checkpoint_ns ?? '' } } : {}) },
        };
      }
      case 'agent.getTree':
      case 'input.inject':
      case 'state.listCheckpoints':
      case 'state.fork':
      case 'subscription.subscribe':
      case 'subscription.unsubscribe':
      case 'subscription.reconnect':
        return failure(id, 'not_supported', `${method} is not supported over HTTP by this server`);
      default:
        return failure(id, 'unknown_command', `Unknown protocol command: ${method}`);
    }
  };

  const commands = route(
    {
      ...op('post', '/threads/:thread_id/commands', 'thread_protocol_command', 'Send a streaming-protocol command (run.start, input.respond, state.get)'),
      description: 'Answers `{type: "success", id, result}` or `{type: "error", id, error, message}`. `run.start` creates the thread if it does not exist.',
      params: threadPath,
      body: protocolCommandSchema,
      responses: { 200: { description: "The command's outcome", schema: commandReply }, 404: notFound },
    },
    async ({ params: { thread_id }, body: { id, method, params } }, _req, res) => {
      // Events are numbered in the durable log, not by this request: like LangGraph Platform's HTTP commands, no seq
      // is known to be applied (`applied_through_seq: 0`; the SDK then finds the run's start on the stream).
      const reply = await command(res, thread_id, id, method, params);
      // Like the reference, a command's own parameter errors carry no meta.
      res.json(reply.type === 'error' && reply.error !== 'unknown_command' && reply.error !== 'not_supported' ? reply : { ...reply, meta: { thread_id, applied_through_seq: 0 } });
    },
  );

  const streamEvents = route(
    {
      ...op('post', '/threads/:thread_id/stream/events', 'thread_protocol_events', "Stream the thread's runs as streaming-protocol events"),
      description: 'Events carry a per-thread `seq` (also the SSE `id`); `since` or `Last-Event-ID` resumes after one, on any replica.',
      params: threadPath,
      body: streamBody,
      headers: lastEventIdHeader('Resume after this seq (when the body has no `since`)'),
      responses: { 200: eventStream(), 404: notFound },
    },
    async ({ params: { thread_id }, body }, req, res) => {
      const filter = { channels: body.channels, namespaces: body.namespaces ?? undefined, depth: body.depth ?? undefined };
      const since = body.since ?? lastEventSeq(req.get('last-event-id'));
      const controller = new AbortController();
      res.on('close', () => controller.abort());
      const visible = await accessOf(res).authorize('threads:read', { thread_id });
      const events = await runs.streamProtocol(thread_id, since, controller.signal, visible);
      const sse = new SseWriter(res, deps.sseHeartbeatMs);
      sse.open();
      try {
        for await (const event of events) {
          if (matchesFilter(event, filter)) await sse.send({ event: event.method, data: JSON.stringify(event), id: event.seq });
        }
      } finally {
        sse.end();
      }
    },
  );

  return [commands, streamEvents];
}
