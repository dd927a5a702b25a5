import type { AccessFilter } from '@platform/agent-server-data-access';
import type { AuthCaller } from './auth-caller';

/** `resource:action` as LangGraph names what a request does (`threads:create`, `store:get`, ...). */
export type AuthEvent =
  | 'threads:create'
  | 'threads:read'
  | 'threads:update'
  | 'threads:delete'
  | 'threads:search'
  | 'threads:create_run'
  | 'assistants:create'
  | 'assistants:read'
  | 'assistants:update'
  | 'assistants:delete'
  | 'assistants:search'
  | 'crons:create'
  | 'crons:read'
  | 'crons:update'
  | 'crons:delete'
  | 'crons:search'
  | 'store:put'
  | 'store:get'
  | 'store:search'
  | 'store:list_namespaces'
  | 'store:delete';

/** What one request may do, as the deployment's auth handlers decide. */
export interface Access {
  /** The authenticated caller; absent when the deployment has no auth (or the path is open). */
  readonly caller?: AuthCaller;
  /**
   * Asks the deployment's handler for `event` about `value`, which the handler may change in place (e.g. stamp
   * `value.metadata.owner`; the caller then stores what it finds there). Resolves to the filter the resource must
   * pass (undefined: no filter); a NotAllowedError when the handler returns false.
   */
  authorize(event: AuthEvent, value: Record<string, unknown>): Promise<AccessFilter | undefined>;
}

/** A deployment without auth: everything is allowed and nothing is filtered. */
export const OPEN_ACCESS: Access = { authorize: () => Promise.resolve(undefined) };

/** The metadata a handler left in the value it was given (it may have replaced or removed it); undefined if none. */
export function metadataIn(value: Record<string, unknown>): Record<string, unknown> | undefined {
  const metadata = value['metadata'];
  return typeof metadata === 'object' && metadata !== null && !Array.isArray(metadata) ? (metadata as Record<string, unknown>) : undefined;
}
