import { InternalError, NotAllowedError } from '@platform/errors';
import { parseAccessFilter, type AccessFilter } from '@platform/agent-server-data-access';
import type { Access, AuthEvent } from './access';
import type { AuthCaller, AuthUser } from './auth-caller';
import { DeploymentAuthError, fromHttpException } from './deployment-auth.error';

/** The argument every `on(...)` handler gets. */
export interface AuthHandlerContext {
  event: string;
  resource: string;
  action: string;
  value: Record<string, unknown>;
  user: AuthUser;
  permissions: string[];
}

type AuthHandler = (context: AuthHandlerContext) => unknown;

/** What `new Auth()` of `@langchain/langgraph-sdk/auth` holds: what `authenticate(...)` and `on(...)` registered. */
export interface AuthHandlerCache {
  authenticate?: (request: Request) => unknown;
  callbacks?: Record<string, AuthHandler>;
}

/** An `Auth` instance of any copy of the SDK. */
export interface AuthInstance {
  '~handlerCache': AuthHandlerCache;
}

export function isAuthInstance(value: unknown): value is AuthInstance {
  if (typeof value !== 'object' || value === null || !('~handlerCache' in value)) return false;
  const cache = (value as AuthInstance)['~handlerCache'];
  return typeof cache === 'object' && cache !== null;
}

// Runs user code; an HTTPException it throws keeps its status, message and headers, any other error becomes `other`'s.
async function call<T>(fn: () => T, other: (err: unknown) => unknown = (err) => err): Promise<Awaited<T>> {
  try {
    return await fn();
  } catch (err) {
    throw fromHttpException(err) ?? other(err);
  }
}

// Any other error of `authenticate` refuses the request (401) without showing its message; the cause is logged.
const unauthorized = (err: unknown) => new DeploymentAuthError(401, 'Unauthorized', {}, { cause: err });

/** A string is the identity; an object needs a string `identity` (LangGraph's normalisation). */
function callerOf(response: unknown): AuthCaller {
  if (typeof response === 'string') {
    return { user: { identity: response, display_name: response, is_authenticated: true, permissions: [] }, permissions: [] };
  }
  if (typeof response === 'object' && response !== null && typeof (response as { identity?: unknown }).identity === 'string') {
    const given = response as Record<string, unknown> & { identity: string };
    const permissions = Array.isArray(given.permissions) ? (given.permissions as string[]) : [];
    const user: AuthUser = {
      ...given,
      permissions,
      is_authenticated: typeof given.is_authenticated === 'boolean' ? given.is_authenticated : true,
      display_name: typeof given.display_name === 'string' ? given.display_name : given.identity,
    };
    return { user, permissions };
  }
  throw new InternalError('Invalid auth response received. Make sure to either return a `string` or an object with `identity` property.');
}

/**
 * The deployment's `Auth` (langgraph.json `auth.path`), run as LangGraph Platform runs it: `authenticate` on each
 * request, then for each operation the most specific handler of `resource:action`, `resource`, `*:action`, `*`.
 */
export class DeploymentAuth {
  constructor(private readonly instance: AuthInstance) {}

  private get handlers(): AuthHandlerCache {
    return this.instance['~handlerCache'];
  }

  /**
   * The caller a request is from; undefined when the module registered no `authenticate` (then no handler runs, as
   * in the reference). An HTTPException it throws is thrown on as a DeploymentAuthError; any other error is a 401.
   */
  async authenticate(request: Request): Promise<AuthCaller | undefined> {
    const authenticate = this.handlers.authenticate;
    if (!authenticate) return undefined;
    return callerOf(await call(() => authenticate(request), unauthorized));
  }

  /** What a request of this caller may do. */
  accessFor(caller: AuthCaller | undefined): Access {
    return { caller, authorize: (event, value) => this.authorize(caller, event, value) };
  }

  /** See `Access.authorize`. */
  async authorize(caller: AuthCaller | undefined, event: AuthEvent, value: Record<string, unknown>): Promise<AccessFilter | undefined> {
    const callbacks = this.handlers.callbacks;
    if (!callbacks || !caller) return undefined;
    const [resource, action] = event.split(':') as [string, string];
    const key = [event, resource, `*:${action}`, '*'].find((candidate) => Object.hasOwn(callbacks, candidate));
    const handler = key === undefined ? undefined : callbacks[key];
    if (!handler) return undefined;
    const result = await call(() => handler({ event, resource, action, value, user: caller.user, permissions: caller.permissions }));
    if (result === undefined || result === null || result === true) return undefined;
    if (result === false) throw new NotAllowedError('Forbidden');
    if (typeof result !== 'object' || Array.isArray(result)) {
      throw new InternalError(`Auth handler returned invalid result. Expected filter object, null, undefined or boolean. Got "${typeof result}" instead.`);
    }
    return parseAccessFilter(result as Record<string, unknown>);
  }
}
