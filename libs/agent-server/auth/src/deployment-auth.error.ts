import { HTTP_STATUS, PlatformError, type ErrorCode } from '@platform/errors';

const codeOf = (status: number): ErrorCode =>
  (Object.entries(HTTP_STATUS) as [ErrorCode, number][]).find(([, s]) => s === status)?.[0] ?? (status >= 500 ? 'internal' : 'input');

/**
 * An `HTTPException` (`@langchain/langgraph-sdk/auth`) thrown by the deployment's auth: the status, message and
 * headers it chose reach the client (`{"detail": message}`), as LangGraph Platform answers.
 */
export class DeploymentAuthError extends PlatformError {
  readonly code: ErrorCode;

  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.code = codeOf(status);
  }
}

interface HttpExceptionLike {
  status: number;
  message?: unknown;
  headers?: unknown;
}

// Any copy of the SDK's HTTPException (the deployment may install its own): a status and headers, as the reference
// recognises it.
function isHttpException(err: unknown): err is HttpExceptionLike {
  if (typeof err !== 'object' || err === null || !('headers' in err)) return false;
  const { status } = err as { status?: unknown };
  return typeof status === 'number' && Number.isInteger(status) && status >= 300 && status <= 599;
}

function headersOf(headers: unknown): Record<string, string> {
  if (headers instanceof Headers) return Object.fromEntries(headers.entries());
  if (typeof headers !== 'object' || headers === null) return {};
  return Object.fromEntries(Object.entries(headers).flatMap(([name, value]) => (typeof value === 'string' ? [[name, value]] : [])));
}

/** The DeploymentAuthError an HTTPException stands for, or undefined for any other error. */
export function fromHttpException(err: unknown): DeploymentAuthError | undefined {
  if (!isHttpException(err)) return undefined;
  const fallback = err.status === 401 ? 'Unauthorized' : err.status === 403 ? 'Forbidden' : `Error ${err.status}`;
  const message = typeof err.message === 'string' && err.message !== '' ? err.message : fallback;
  return new DeploymentAuthError(err.status, message, headersOf(err.headers));
}
