import { api } from './http';
import type { CreateDeploymentRequest, Deployment, DeploymentPage, PatchDeploymentRequest, Revision, RevisionLogs, RevisionPage } from './types';

const base = (id: string) => `/v2/deployments/${encodeURIComponent(id)}`;

export const deploymentsApi = {
  list: (query: { name_contains?: string; limit?: number; offset?: number }) => api<DeploymentPage>('GET', '/v2/deployments', { query }),
  get: (id: string) => api<Deployment>('GET', base(id)),
  create: (body: CreateDeploymentRequest) => api<Deployment>('POST', '/v2/deployments', { body }),
  patch: (id: string, body: PatchDeploymentRequest) => api<Deployment>('PATCH', base(id), { body }),
  remove: (id: string) => api<void>('DELETE', base(id)),
  revisions: (id: string) => api<RevisionPage>('GET', `${base(id)}/revisions`, { query: { limit: 50 } }),
  redeploy: (id: string, revisionId: string) => api<Deployment>('POST', `${base(id)}/revisions/${revisionId}/redeploy`),
  logs: (id: string, revisionId: string, query: { offset?: string; limit?: number }) =>
    api<RevisionLogs>('GET', `${base(id)}/revisions/${revisionId}/logs`, { query: { limit: 1000, ...query } }),
};

/** Statuses after which a revision changes no more. */
export const isRevisionDone = (r: Pick<Revision, 'status'>) => !['CREATING', 'QUEUED', 'AWAITING_BUILD', 'BUILDING', 'AWAITING_DEPLOY', 'DEPLOYING'].includes(r.status);
