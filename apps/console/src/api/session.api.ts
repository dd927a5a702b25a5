import { api } from './http';
import type { BrowserSession } from './types';

const PATH = '/api/v1/browser-session';

export const sessionApi = {
  get: () => api<BrowserSession>('GET', PATH),
  signIn: (apiKey: string) => api<BrowserSession>('POST', PATH, { body: { api_key: apiKey } }),
  pickWorkspace: (workspaceId: string) => api<BrowserSession>('PATCH', PATH, { body: { workspace_id: workspaceId } }),
  signOut: () => api<void>('DELETE', PATH),
};
