type ErrorBody = { detail?: unknown; jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };

const isFastApiIssue = (issue: unknown) => {
  const { loc, msg, type } = (issue ?? {}) as { loc?: unknown; msg?: unknown; type?: unknown };
  return Array.isArray(loc) && typeof msg === 'string' && typeof type === 'string';
};

/**
 * What is wrong with a service's answer to a malformed request, if anything: a 5xx; an error that is not JSON or has
 * no `detail`; a 422 whose detail is not FastAPI's list of `{loc, msg, type}`; a 4xx that names no problem but an
 * internal error (an exception answered with a client status). With `jsonRpc` (A2A, MCP) errors must be JSON-RPC
 * error objects instead. A success or a 405 is no fault.
 */
export function errorAnswerFault(status: number, text: string, options: { jsonRpc?: boolean } = {}): string | undefined {
  if (status >= 500) return `${status}`;
  if (status < 400 || status === 405) return undefined;
  let body: ErrorBody;
  try {
    body = JSON.parse(text) as ErrorBody;
  } catch {
    return 'not JSON';
  }
  if (options.jsonRpc) {
    return body.jsonrpc === '2.0' && typeof body.error?.code === 'number' && typeof body.error.message === 'string' ? undefined : 'not a JSON-RPC error';
  }
  if (body.detail === undefined) return 'no detail';
  if (body.detail === 'Internal Server Error') return `${status} hiding an internal error`;
  if (status === 422 && !(Array.isArray(body.detail) && body.detail.every(isFastApiIssue))) return '422 not FastAPI-shaped';
  return undefined;
}
