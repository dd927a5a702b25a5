import { Auth, HTTPException } from '@langchain/langgraph-sdk/auth';
import { InternalError, NotAllowedError } from '@platform/errors';
import type { AuthEvent } from './access';
import type { AuthCaller } from './auth-caller';
import { DeploymentAuth, isAuthInstance, type AuthHandlerContext, type AuthInstance } from './deployment-auth';
import { DeploymentAuthError } from './deployment-auth.error';

const request = (token?: string) => new Request('http://agent.test/threads', { headers: token ? { authorization: `Bearer ${token}` } : {} });
const alice: AuthCaller = { user: { identity: 'alice', display_name: 'alice', is_authenticated: true, permissions: ['read'] }, permissions: ['read'] };

// The SDK's `Auth` is typed per event; these tests register handlers generically.
const deploymentAuth = (auth: Auth) => new DeploymentAuth(auth as unknown as AuthInstance);

/** Which registered handler answered each event. */
function handlerNames(keys: string[]): DeploymentAuth {
  const auth = new Auth();
  for (const key of keys) auth.on(key as '*', () => ({ handler: key }));
  return deploymentAuth(auth);
}

describe('DeploymentAuth', () => {
  it('recognises an Auth instance of any SDK copy by its handler cache', () => {
    expect(isAuthInstance(new Auth())).toBe(true);
    expect(isAuthInstance({ '~handlerCache': {} })).toBe(true);
    expect(isAuthInstance({})).toBe(false);
    expect(isAuthInstance(null)).toBe(false);
  });

  describe('authenticate', () => {
    it('normalises a string into a user with that identity', async () => {
      const auth = deploymentAuth(new Auth().authenticate(() => 'bob'));
      expect(await auth.authenticate(request())).toEqual({
        user: { identity: 'bob', display_name: 'bob', is_authenticated: true, permissions: [] },
        permissions: [],
      });
    });

    it('keeps the extra fields of a user object and fills display_name, is_authenticated and permissions', async () => {
      const auth = deploymentAuth(
        new Auth().authenticate((req) => ({ identity: 'ann', permissions: ['w'], role: 'admin', token: req.headers.get('authorization') })),
      );
      expect(await auth.authenticate(request('t1'))).toEqual({
        user: { identity: 'ann', display_name: 'ann', is_authenticated: true, permissions: ['w'], role: 'admin', token: 'Bearer t1' },
        permissions: ['w'],
      });
      const given = deploymentAuth(new Auth().authenticate(() => ({ identity: 'x', permissions: [], display_name: 'X', is_authenticated: false })));
      expect((await given.authenticate(request()))?.user).toMatchObject({ display_name: 'X', is_authenticated: false });
    });

    it('passes an HTTPException on with its status, message and headers', async () => {
      const auth = deploymentAuth(
        new Auth().authenticate(() => {
          throw new HTTPException(401, { message: 'Invalid token', headers: { 'WWW-Authenticate': 'Bearer' } });
        }),
      );
      const err = await auth.authenticate(request()).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(DeploymentAuthError);
      expect(err).toMatchObject({ status: 401, code: 'authentication', message: 'Invalid token', headers: { 'WWW-Authenticate': 'Bearer' } });
      const teapot = deploymentAuth(new Auth().authenticate(async () => Promise.reject(new HTTPException(418))));
      await expect(teapot.authenticate(request())).rejects.toMatchObject({ status: 418, message: "I'm a Teapot" });
    });

    it('refuses with 401 when it throws anything else, keeping the error as the cause', async () => {
      const boom = new Error('token service down');
      const auth = deploymentAuth(
        new Auth().authenticate(() => {
          throw boom;
        }),
      );
      const err = await auth.authenticate(request()).catch((e: unknown) => e);
      expect(err).toMatchObject({ status: 401, message: 'Unauthorized', cause: boom });
    });

    it('is a fault of the module (500) when the answer has no identity', async () => {
      const auth = deploymentAuth(new Auth().authenticate(() => ({ name: 'x' }) as never));
      await expect(auth.authenticate(request())).rejects.toThrow(InternalError);
    });

    it('knows no caller when the module registered no authenticate', async () => {
      expect(await deploymentAuth(new Auth()).authenticate(request())).toBeUndefined();
    });
  });

  describe('authorize', () => {
    it.each<[string[], AuthEvent, string | undefined]>([
      [['threads:create', 'threads', '*:create', '*'], 'threads:create', 'threads:create'],
      [['threads', '*:create', '*'], 'threads:create', 'threads'],
      [['*:create', '*'], 'threads:create', '*:create'],
      [['*'], 'threads:create', '*'],
      [['threads:read', 'assistants', '*:read'], 'threads:create', undefined],
      [['store', '*'], 'store:put', 'store'],
      [['crons:search'], 'crons:search', 'crons:search'],
    ])('with handlers %j, %s goes to %s', async (keys, event, expected) => {
      const filter = await handlerNames(keys).authorize(alice, event, {});
      expect(filter).toEqual(expected === undefined ? undefined : [{ key: 'handler', op: 'eq', value: expected }]);
    });

    it('gives the handler the event, resource, action, value, user and permissions; the value may be changed', async () => {
      const seen: AuthHandlerContext[] = [];
      const auth = deploymentAuth(
        new Auth().on('threads:create', (ctx) => {
          seen.push(ctx as unknown as AuthHandlerContext);
          ctx.value.metadata = { ...ctx.value.metadata, owner: ctx.user.identity };
          return { owner: ctx.user.identity };
        }),
      );
      const value: Record<string, unknown> = { thread_id: 't1', metadata: { x: 1 } };
      expect(await auth.authorize(alice, 'threads:create', value)).toEqual([{ key: 'owner', op: 'eq', value: 'alice' }]);
      expect(value.metadata).toEqual({ x: 1, owner: 'alice' });
      expect(seen[0]).toEqual({ event: 'threads:create', resource: 'threads', action: 'create', value, user: alice.user, permissions: ['read'] });
    });

    it('allows everything on true, null or nothing, and refuses (403) on false', async () => {
      for (const answer of [true, null, undefined]) {
        expect(await deploymentAuth(new Auth().on('*', () => answer as never)).authorize(alice, 'threads:read', {})).toBeUndefined();
      }
      const refusing = deploymentAuth(new Auth().on('*', () => false));
      await expect(refusing.authorize(alice, 'threads:read', {})).rejects.toThrow(NotAllowedError);
      await expect(refusing.authorize(alice, 'threads:read', {})).rejects.toThrow('Forbidden');
    });

    it('passes a handler HTTPException on, and turns an answer it cannot use into a 500', async () => {
      const throwing = deploymentAuth(
        new Auth().on('*', () => {
          throw new HTTPException(403, { message: 'read-only user' });
        }),
      );
      await expect(throwing.authorize(alice, 'threads:update', {})).rejects.toMatchObject({ status: 403, code: 'not_allowed', message: 'read-only user' });
      const odd = deploymentAuth(new Auth().on('*', () => 'yes' as never));
      await expect(odd.authorize(alice, 'threads:read', {})).rejects.toThrow('Expected filter object, null, undefined or boolean. Got "string"');
    });

    it('runs no handler without a caller (a deployment without authenticate, an open path)', async () => {
      const handler = jest.fn(() => false);
      const auth = deploymentAuth(new Auth().on('*', handler));
      expect(await auth.authorize(undefined, 'threads:read', {})).toBeUndefined();
      expect(await auth.accessFor(undefined).authorize('threads:read', {})).toBeUndefined();
      expect(handler).not.toHaveBeenCalled();
      await expect(auth.accessFor(alice).authorize('threads:read', {})).rejects.toThrow(NotAllowedError);
      expect(auth.accessFor(alice).caller).toBe(alice);
    });
  });
});
