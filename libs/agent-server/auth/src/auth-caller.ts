/** The user a deployment's `authenticate` returned, normalised as LangGraph does (`BaseUser` and any extra fields). */
export interface AuthUser {
  identity: string;
  display_name: string;
  is_authenticated: boolean;
  permissions: string[];
  [key: string]: unknown;
}

/** Who is calling, as the deployment's own auth says: the user and its permissions (LangGraph's "scopes"). */
export interface AuthCaller {
  user: AuthUser;
  permissions: string[];
}

/**
 * What a run's `configurable` carries about its caller, as on LangGraph Platform: graphs read
 * `config.configurable.langgraph_auth_user` (and `_user_id`, `langgraph_auth_permissions`). JSON, so it is stored
 * with the run and reaches whichever replica executes it.
 */
export function callerConfigurable(caller: AuthCaller): Record<string, unknown> {
  return JSON.parse(
    JSON.stringify({
      langgraph_auth_user: caller.user,
      langgraph_auth_user_id: caller.user.identity,
      langgraph_auth_permissions: caller.permissions,
    }),
  ) as Record<string, unknown>;
}
