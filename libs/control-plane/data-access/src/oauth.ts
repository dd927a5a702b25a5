// OAuth providers, flows and tokens as the control plane keeps them (the OAuth repository's records).
export interface OAuthProvider {
  id: string;
  tenantId: string;
  providerId: string;
  name: string;
  clientId: string;
  /** Sealed; never leaves the control plane. */
  clientSecret: string | null;
  authUrl: string;
  tokenUrl: string;
  usesPkce: boolean;
  codeChallengeMethod: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export type FlowStatus = 'pending' | 'exchanging' | 'completed' | 'failed';

export interface OAuthFlow {
  id: string;
  tenantId: string;
  providerId: string;
  userId: string;
  scopes: string[];
  stateHash: string;
  codeVerifier: string | null;
  redirectUri: string;
  status: FlowStatus;
  error: string | null;
  errorDescription: string | null;
  tokenId: string | null;
  expiresAt: Date;
  createdAt: Date;
  completedAt: Date | null;
}

export interface OAuthToken {
  id: string;
  tenantId: string;
  providerId: string;
  userId: string;
  scopes: string[];
  /** Sealed. */
  accessToken: string;
  refreshToken: string | null;
  tokenType: string | null;
  expiresAt: Date | null;
  createdAt: Date;
}

export type NewProvider = Omit<OAuthProvider, 'id' | 'createdAt' | 'updatedAt'>;
export type ProviderChanges = Partial<Omit<NewProvider, 'tenantId' | 'providerId'>>;
