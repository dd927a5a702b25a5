export * from './git-repo';
export * from './git-http-server';
export * from './fake-oauth-provider';
export * from './fake-kubernetes-api';
