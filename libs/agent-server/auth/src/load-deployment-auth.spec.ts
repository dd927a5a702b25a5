import path from 'node:path';
import { InputError } from '@platform/errors';
import { DeploymentAuth } from './deployment-auth';
import { loadDeploymentAuth } from './load-deployment-auth';

const dir = path.join(__dirname, 'testing');

describe('loadDeploymentAuth', () => {
  it('loads the Auth a `file:export` names, or the default export', async () => {
    for (const spec of ['./fixture-auth.ts:auth', './fixture-auth.ts']) {
      const auth = await loadDeploymentAuth(spec, dir);
      expect(auth).toBeInstanceOf(DeploymentAuth);
      expect(await auth.authenticate(new Request('http://agent.test/'))).toMatchObject({ user: { identity: 'fixture-user' } });
    }
  });

  it('refuses, naming the module, what would leave the server without the auth it was asked for', async () => {
    await expect(loadDeploymentAuth('./missing.ts:auth', dir)).rejects.toThrow(new InputError('auth.path: file ./missing.ts not found'));
    await expect(loadDeploymentAuth('./failing-auth.ts:auth', dir)).rejects.toThrow('auth.path: cannot load ./failing-auth.ts: AUTH_SECRET is not set');
    await expect(loadDeploymentAuth('./fixture-auth.ts:other', dir)).rejects.toThrow("auth.path: ./fixture-auth.ts has no export 'other'");
    await expect(loadDeploymentAuth('./fixture-auth.ts:notAuth', dir)).rejects.toThrow(
      "auth.path: export 'notAuth' of ./fixture-auth.ts is not an Auth instance (new Auth() of @langchain/langgraph-sdk/auth)",
    );
  });
});
