import { mapPrismaError } from '@platform/prisma';
import type { PrismaClient } from './generated/prisma/client';
import type { FlowStatus, NewProvider, OAuthFlow, OAuthProvider, OAuthToken, ProviderChanges } from './oauth';

/** OAuth providers, flows and tokens in the control plane's database. */
export class OAuthRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async createProvider(provider: NewProvider): Promise<OAuthProvider> {
    try {
      return await this.prisma.oAuthProvider.create({ data: provider });
    } catch (err) {
      throw mapPrismaError(err, { conflict: `An OAuth provider "${provider.providerId}" already exists` });
    }
  }

  listProviders(tenantId: string): Promise<OAuthProvider[]> {
    return this.prisma.oAuthProvider.findMany({ where: { tenantId }, orderBy: { providerId: 'asc' } });
  }

  findProvider(tenantId: string, providerId: string): Promise<OAuthProvider | null> {
    return this.prisma.oAuthProvider.findUnique({ where: { tenantId_providerId: { tenantId, providerId } } });
  }

  async updateProvider(tenantId: string, providerId: string, changes: ProviderChanges): Promise<OAuthProvider> {
    try {
      return await this.prisma.oAuthProvider.update({ where: { tenantId_providerId: { tenantId, providerId } }, data: changes });
    } catch (err) {
      throw mapPrismaError(err, { notFound: `OAuth provider ${providerId} not found` });
    }
  }

  async deleteProvider(tenantId: string, providerId: string): Promise<boolean> {
    const { count } = await this.prisma.oAuthProvider.deleteMany({ where: { tenantId, providerId } });
    return count > 0;
  }

  async createFlow(flow: Omit<OAuthFlow, 'createdAt' | 'completedAt' | 'error' | 'errorDescription' | 'tokenId' | 'status'>): Promise<OAuthFlow> {
    return (await this.prisma.oAuthFlow.create({ data: { ...flow, status: 'pending' } })) as OAuthFlow;
  }

  async findFlow(id: string): Promise<OAuthFlow | null> {
    return (await this.prisma.oAuthFlow.findUnique({ where: { id } })) as OAuthFlow | null;
  }

  /** Compare-and-set of a flow's status; false when it was not in `from` (a replayed or concurrent callback). */
  async moveFlow(id: string, from: FlowStatus, to: FlowStatus, changes: Partial<Pick<OAuthFlow, 'error' | 'errorDescription' | 'tokenId' | 'completedAt'>> = {}): Promise<boolean> {
    const { count } = await this.prisma.oAuthFlow.updateMany({ where: { id, status: from }, data: { status: to, ...changes } });
    return count === 1;
  }

  saveToken(token: Omit<OAuthToken, 'createdAt'>): Promise<OAuthToken> {
    return this.prisma.oAuthToken.create({ data: token });
  }

  findToken(tenantId: string, id: string): Promise<OAuthToken | null> {
    return this.prisma.oAuthToken.findFirst({ where: { id, tenantId } });
  }

  /** The newest token of a user at a provider. */
  latestToken(tenantId: string, providerId: string, userId: string): Promise<OAuthToken | null> {
    return this.prisma.oAuthToken.findFirst({ where: { tenantId, providerId, userId }, orderBy: { createdAt: 'desc' } });
  }
}
