import { importExport, parseGraphSpec } from '@platform/agent-server-graphs';
import { InputError } from '@platform/errors';
import { DeploymentAuth, isAuthInstance } from './deployment-auth';

/**
 * Imports the `Auth` that langgraph.json's `auth.path` names (`./src/auth.ts:auth`, relative to `dir`) with the loader
 * graphs use, so `@langchain/langgraph-sdk/auth` resolves as it does for them. A module that is missing, fails to
 * import or exports no `Auth` is an InputError naming it: the server must not start without the auth it was asked for.
 */
export async function loadDeploymentAuth(authPath: string, dir: string): Promise<DeploymentAuth> {
  const spec = parseGraphSpec(authPath);
  const value = await importExport(spec, dir, 'auth.path');
  if (!isAuthInstance(value)) {
    throw new InputError(`auth.path: export '${spec.exportName}' of ${spec.file} is not an Auth instance (new Auth() of @langchain/langgraph-sdk/auth)`);
  }
  return new DeploymentAuth(value);
}
