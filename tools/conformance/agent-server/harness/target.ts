import { Client } from '@langchain/langgraph-sdk';
import { readSse, type SseEvent } from './sse';

/** One server under test, as the script sees it. */
export interface TargetServer {
  name: string;
  url: string;
  /** Headers every request to it needs (ours: the gateway's signed identity). */
  baseHeaders: () => Record<string, string>;
}

/** A request's answer, reduced to what the comparison looks at. */
export interface HttpAnswer {
  status: number;
  body: unknown;
  headers?: Record<string, string | null>;
}

/** An error as a client sees it: the status and the message, whatever the body's shape. */
export interface ErrorAnswer {
  error: { status: number | null; message: string };
}

export interface RequestOptions {
  body?: unknown;
  /** A bearer token for the project's custom auth. */
  token?: string;
  headers?: Record<string, string>;
  /** Response headers to keep in the answer. */
  keepHeaders?: string[];
}

/** The message of an error body: the reference answers text, this server `{"detail": ...}`. */
export function errorMessage(body: unknown): string {
  if (typeof body === 'object' && body !== null && 'detail' in body) {
    const detail = (body as { detail: unknown }).detail;
    return typeof detail === 'string' ? detail : JSON.stringify(detail);
  }
  return typeof body === 'string' ? body : JSON.stringify(body);
}

function parseBody(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A script's view of one server: raw requests, SSE streams, SDK clients, and the ids it created under the names the
 * script gave them (the normaliser writes those names instead of the ids).
 */
export class TargetSession {
  /** id → name, for the normaliser. */
  readonly names = new Map<string, string>();
  /** name → id, for later steps. */
  readonly vars: Record<string, string> = {};

  constructor(readonly server: TargetServer) {}

  /** Remembers `id` as `name` and returns it. */
  keep(name: string, id: string): string {
    this.vars[name] = id;
    this.names.set(id.toLowerCase(), `<${name}>`);
    return id;
  }

  /** The id kept as `name`; a missing one (its step failed) is a placeholder that makes later requests fail. */
  id(name: string): string {
    return this.vars[name] ?? '00000000-0000-4000-8000-000000000000';
  }

  headers(options: Pick<RequestOptions, 'token' | 'headers'> = {}): Record<string, string> {
    return {
      ...this.server.baseHeaders(),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    };
  }

  sdk(options: Pick<RequestOptions, 'token' | 'headers'> = {}): Client {
    return new Client({ apiUrl: this.server.url, apiKey: null, defaultHeaders: this.headers(options), callerOptions: { maxRetries: 0 } });
  }

  async fetch(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const hasBody = options.body !== undefined;
    return fetch(`${this.server.url}${path}`, {
      method,
      headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...this.headers(options) },
      body: hasBody ? JSON.stringify(options.body) : undefined,
    });
  }

  /** A request's status and body (JSON where it parses); errors keep only their message. */
  async request(method: string, path: string, options: RequestOptions = {}): Promise<HttpAnswer> {
    const res = await this.fetch(method, path, options);
    const body = parseBody(await res.text());
    const answer: HttpAnswer = { status: res.status, body: res.status >= 400 ? { message: errorMessage(body) } : body };
    if (options.keepHeaders) answer.headers = Object.fromEntries(options.keepHeaders.map((name) => [name, res.headers.get(name)]));
    return answer;
  }

  /** A streaming request's SSE events (event name and parsed data), read to the end. */
  async stream(method: string, path: string, options: RequestOptions = {}): Promise<HttpAnswer & { events?: SseEvent[] }> {
    const res = await this.fetch(method, path, options);
    if (res.status >= 400 || !res.body) return { status: res.status, body: { message: errorMessage(parseBody(await res.text())) } };
    return { status: res.status, body: null, events: await readSse(res.body) };
  }
}

/** Runs an SDK call; a thrown HTTP error becomes its status and message. */
export async function capture<T>(call: () => Promise<T>): Promise<T | ErrorAnswer> {
  try {
    return await call();
  } catch (err) {
    const status = (err as { status?: unknown }).status;
    const raw = err instanceof Error ? err.message : String(err);
    // The SDK's message is `HTTP <status>: <body>`.
    const body = raw.replace(/^HTTP \d+: /, '');
    return { error: { status: typeof status === 'number' ? status : null, message: errorMessage(parseBody(body)) } };
  }
}

/** A run's `kwargs` (the servers send them; the SDK's `Run` type does not declare them). */
export const kwargsOf = (run: object): Record<string, unknown> => ((run as { kwargs?: Record<string, unknown> }).kwargs ?? {});
