export { metadataIn, OPEN_ACCESS, type Access, type AuthEvent } from './access';
export { bothFilters, matchesAccessFilter, parseAccessFilter, type AccessCondition, type AccessFilter, type AccessOperator } from './access-filter';
export { accessFilterSql, binderOf, type Bind } from './access-filter.sql';
export { callerConfigurable, type AuthCaller, type AuthUser } from './auth-caller';
export { DeploymentAuth, type AuthHandlerContext, type AuthInstance } from './deployment-auth';
export { DeploymentAuthError } from './deployment-auth.error';
export { loadDeploymentAuth } from './load-deployment-auth';
