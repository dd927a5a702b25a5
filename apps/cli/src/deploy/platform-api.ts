import type { DeployOptions } from './deploy-options';

/** An answer of the platform that was not a success: its status and `detail`. */
export class PlatformError extends Error {
  constructor(
    readonly status: number,
    readonly detail: unknown,
    what: string,
  ) {
    // Status 0: no answer at all (the gateway unreachable); the detail says so.
    super(`${what}: ${status ? `${status} ` : ''}${typeof detail === 'string' ? detail : JSON.stringify(detail)}`);
  }
}

export type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** Calls the platform's API through its gateway with the deploy's key (and workspace). */
export function platformApi(options: Pick<DeployOptions, 'gateway' | 'apiKey' | 'workspaceId'>) {
  const headers: Record<string, string> = { 'x-api-key': options.apiKey };
  if (options.workspaceId) headers['x-tenant-id'] = options.workspaceId;
  return async (method: string, route: string, body?: unknown, contentType = 'application/json'): Promise<Json> => {
    let res: Response;
    try {
      res = await fetch(`${options.gateway}${route}`, {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-type': contentType },
        body: body === undefined ? undefined : Buffer.isBuffer(body) ? body : JSON.stringify(body),
      });
    } catch (err) {
      throw new PlatformError(0, `cannot reach the gateway at ${options.gateway} (${(err as Error).cause ?? (err as Error).message}); is the platform running (npm start)?`, `${method} ${route}`);
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // Not JSON: kept as text.
    }
    if (!res.ok) throw new PlatformError(res.status, (parsed as Json)?.detail ?? parsed, `${method} ${route}`);
    return parsed as Json;
  };
}

export type PlatformApi = ReturnType<typeof platformApi>;
