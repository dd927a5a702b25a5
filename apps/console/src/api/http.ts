// Every request of the console goes to the gateway it was loaded from, with the browser session's cookie (sent by
// the browser, never readable here) and, on requests that change data, the session's CSRF token.

/** The CSRF token of the browser session (its readable cookie, set at sign-in). */
export function csrfToken(): string {
  const found = /(?:^|;\s*)platform_csrf=([^;]*)/.exec(document.cookie);
  return found ? decodeURIComponent(found[1]) : '';
}

/** One problem of a FastAPI-shaped 422: where (`loc`) and what. */
export interface FieldProblem {
  loc: Array<string | number>;
  msg: string;
  type: string;
}

/** An answer of the API that is not a success: its status and `detail` (a message, or the 422 problems). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly detail: string | FieldProblem[],
  ) {
    super(typeof detail === 'string' ? detail : detail.map((p) => `${p.loc.join('.')}: ${p.msg}`).join('; '));
  }

  get problems(): FieldProblem[] {
    return typeof this.detail === 'string' ? [] : this.detail;
  }

  /** The 422 messages by field path without its first part (`body`/`query`): `source_config.repo_url` → message. */
  fieldErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const p of this.problems) errors[p.loc.slice(1).join('.')] ??= p.msg;
    return errors;
  }
}

export type Query = Record<string, string | number | boolean | string[] | null | undefined>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const body = JSON.parse(text) as { detail?: unknown };
    const detail = body.detail;
    if (typeof detail === 'string' || Array.isArray(detail)) return new ApiError(res.status, detail as string | FieldProblem[]);
    return new ApiError(res.status, text);
  } catch {
    return new ApiError(res.status, text || res.statusText);
  }
}

/** Listeners told when the gateway says the session is gone (401), so the app shows the sign-in page. */
const unauthorizedListeners = new Set<() => void>();
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

/** A JSON request to the gateway; throws ApiError for any answer but 2xx. */
export async function api<T>(method: string, path: string, options: { body?: unknown; query?: Query; signal?: AbortSignal } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD') headers['x-csrf-token'] = csrfToken();
  const res = await fetch(withQuery(path, options.query), {
    method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    credentials: 'same-origin',
    signal: options.signal,
  });
  if (!res.ok) {
    const error = await errorOf(res);
    if (res.status === 401 && !path.endsWith('/browser-session')) unauthorizedListeners.forEach((listener) => listener());
    throw error;
  }
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  return (text ? JSON.parse(text) : undefined) as T;
}
