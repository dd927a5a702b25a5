import type { Request, Response } from 'express';
import type { RunService } from '@platform/agent-server-runs';
import type { SubscribeFrom, ThreadStreamFrom } from '@platform/agent-server-run-streams';
import type { StoredEvent, StreamMode } from '@platform/agent-server-run-records';
import { SseWriter } from './sse';

/** Where the SDK finds a run again: the run (`Content-Location`) and its joinable stream (`Location`). */
export function runLocations(threadId: string, runId: string, stateless: boolean): Record<string, string> {
  return {
    'Content-Location': stateless ? `/runs/${runId}` : `/threads/${threadId}/runs/${runId}`,
    Location: `/threads/${threadId}/runs/${runId}/stream`,
  };
}

/** `Last-Event-ID`: resume after that event (`-1`: from the start); absent: only what comes next. */
export function resumeFrom(req: Request): SubscribeFrom {
  const header = req.get('last-event-id');
  if (header === undefined || header.trim() === '') return 'live';
  const seq = Number(header);
  return Number.isInteger(seq) ? Math.max(-1, seq) : 'live';
}

/** A thread stream's `Last-Event-ID` is `<run_id>:<seq>`; anything else starts with what comes next. */
export function threadResumeFrom(req: Request): ThreadStreamFrom {
  const match = /^([0-9a-f-]{36}):(-?\d+)$/i.exec(req.get('last-event-id')?.trim() ?? '');
  return match ? { runId: match[1], seq: Number(match[2]) } : 'live';
}

const ALWAYS = new Set(['metadata', 'error']);

/** Whether a stored event belongs to one of the modes a joining client asked for. */
export function eventInModes(event: string, modes: StreamMode[] | undefined): boolean {
  if (!modes || modes.length === 0) return true;
  const base = event.split('|')[0];
  if (ALWAYS.has(base)) return true;
  if (base === 'messages') return modes.includes('messages-tuple');
  if (base.startsWith('messages/')) return modes.includes('messages');
  return modes.includes(base as StreamMode);
}

export interface StreamRunOptions {
  runs: RunService;
  runId: string;
  threadId: string;
  from: SubscribeFrom;
  heartbeatMs: number;
  headers?: Record<string, string>;
  modes?: StreamMode[];
  /** Cancel the run (interrupt) when the client goes away before it ended. */
  cancelOnDisconnect: boolean;
}

/** Streams a run's events as SSE until it ends; the response ends with the run. */
export async function streamRun(res: Response, options: StreamRunOptions): Promise<void> {
  const subscription = await options.runs.subscribe(options.runId, options.from);
  const sse = new SseWriter(res, options.heartbeatMs);
  let ended = false;
  res.on('close', () => {
    subscription.close();
    if (!ended && options.cancelOnDisconnect) {
      options.runs.cancel(options.threadId, options.runId, { action: 'interrupt' }).catch(() => undefined);
    }
  });
  sse.open(options.headers);
  try {
    for await (const event of subscription as AsyncIterable<StoredEvent>) {
      if (eventInModes(event.event, options.modes)) await sse.send({ event: event.event, data: event.data, id: event.seq });
    }
    ended = true;
  } catch (err) {
    // The stream is open: say why it stops instead of a status code.
    const message = err instanceof Error ? err.message : String(err);
    await sse.send({ event: 'error', data: JSON.stringify({ error: 'StreamError', message }) });
  } finally {
    sse.end();
  }
}

/**
 * A join of a stream whose run the caller cannot have, as the reference answers it: the stream opens (200) and says
 * why in one `error` event (`data`, JSON), which the SDK yields instead of throwing; `null` data: an empty stream
 * (a stateless join of an unknown run).
 */
export function streamNotFound(res: Response, data: unknown, headers?: Record<string, string>): Promise<void> {
  const sse = new SseWriter(res, 60_000);
  sse.open(headers);
  const sent = data === null ? Promise.resolve() : sse.send({ event: 'error', data: JSON.stringify(data) });
  return sent.finally(() => sse.end());
}

/**
 * Answers with JSON text once `result` settles. A long wait sends the headers and then a newline every
 * `keepAliveMs` (JSON allows leading whitespace), so proxies keep the connection; a failure after that is
 * reported in the body as `{"__error__": ...}`. `headersAtOnce` sends the headers (with `Content-Location`, the run
 * a wait created) before waiting, as the reference server does: whoever relays the answer knows the run from the
 * start, and the gateway can go on waiting on it elsewhere if this replica dies.
 */
export async function jsonWhenDone(res: Response, result: Promise<string>, keepAliveMs: number, options: { headersAtOnce?: boolean } = {}): Promise<void> {
  // What `res.status(200).type('application/json')` sets, without express's MIME lookup on every wait.
  const jsonHeaders = () => {
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.flushHeaders();
  };
  if (options.headersAtOnce) jsonHeaders();
  let timer: NodeJS.Timeout | undefined;
  const keepAlive = () => {
    if (!res.headersSent) jsonHeaders();
    res.write('\n');
    timer = setTimeout(keepAlive, keepAliveMs);
  };
  timer = setTimeout(keepAlive, keepAliveMs);
  res.on('close', () => clearTimeout(timer));
  try {
    const text = await result;
    clearTimeout(timer);
    if (res.destroyed) return;
    if (!res.headersSent) res.status(200).type('application/json').send(text);
    else res.end(text);
  } catch (err) {
    clearTimeout(timer);
    if (!res.headersSent) throw err;
    const error = err instanceof Error ? { error: err.name, message: err.message } : { error: 'Error', message: String(err) };
    res.end(JSON.stringify({ __error__: error }));
  }
}
