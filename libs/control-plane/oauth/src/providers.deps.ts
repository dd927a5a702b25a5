export interface ProviderInput {
  providerId: string;
  name: string;
  clientId: string;
  clientSecret?: string | null;
  authUrl: string;
  tokenUrl: string;
  usesPkce?: boolean;
  codeChallengeMethod?: string | null;
}
