export { metadataIn, OPEN_ACCESS, type Access, type AuthEvent } from './access';
// The filter a handler returns lives with the repositories that apply it in SQL (`accessFilterSql` of the data-access lib).
export {
  bothFilters,
  matchesAccessFilter,
  parseAccessFilter,
  type AccessCondition,
  type AccessFilter,
  type AccessOperator,
} from '@platform/agent-server-data-access';
export { callerConfigurable, type AuthCaller, type AuthUser } from './auth-caller';
export { DeploymentAuth, type AuthHandlerContext, type AuthInstance } from './deployment-auth';
export { DeploymentAuthError } from './deployment-auth.error';
export { loadDeploymentAuth } from './load-deployment-auth';
