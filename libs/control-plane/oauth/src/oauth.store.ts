import type { FlowStatus, NewProvider, OAuthFlow, OAuthProvider, OAuthToken, ProviderChanges } from './oauth.types';

/** Persistence of providers, flows and tokens; the Prisma repository implements it. */
export interface OAuthStore {
  createProvider(provider: NewProvider): Promise<OAuthProvider>;
  listProviders(tenantId: string): Promise<OAuthProvider[]>;
  findProvider(tenantId: string, providerId: string): Promise<OAuthProvider | null>;
  updateProvider(tenantId: string, providerId: string, changes: ProviderChanges): Promise<OAuthProvider>;
  deleteProvider(tenantId: string, providerId: string): Promise<boolean>;

  createFlow(flow: Omit<OAuthFlow, 'createdAt' | 'completedAt' | 'error' | 'errorDescription' | 'tokenId' | 'status'>): Promise<OAuthFlow>;
  findFlow(id: string): Promise<OAuthFlow | null>;
  /** Compare-and-set of a flow's status; false when it was not in `from` (a replayed or concurrent callback). */
  moveFlow(id: string, from: FlowStatus, to: FlowStatus, changes?: Partial<Pick<OAuthFlow, 'error' | 'errorDescription' | 'tokenId' | 'completedAt'>>): Promise<boolean>;

  saveToken(token: Omit<OAuthToken, 'createdAt'>): Promise<OAuthToken>;
  findToken(tenantId: string, id: string): Promise<OAuthToken | null>;
  /** The newest token of a user at a provider. */
  latestToken(tenantId: string, providerId: string, userId: string): Promise<OAuthToken | null>;
}
