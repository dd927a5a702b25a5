import { ConflictError } from '@platform/errors';
import { mapPrismaError } from '@platform/prisma';
import type { WorkspaceLimitOverrides } from '@platform/rate-limit';
import type { PrismaClient } from './generated/prisma/client';
import { IDENTITY_CHANGES_CHANNEL, type ApiKeyRecord, type BrowserSession, type IdentityChange, type NewApiKey, type NewBrowserSession, type Organization, type Workspace } from './identity';
import { toApiKey, toBrowserSession, toWorkspace } from './identity-rows';

function rethrow(conflict: string, notFound?: string) {
  return (err: unknown): never => {
    throw mapPrismaError(err, { conflict, notFound });
  };
}

const orderByCreation = { orderBy: [{ createdAt: 'asc' as const }, { id: 'asc' as const }] };

/**
 * Organizations, workspaces, API keys and browser sessions in the gateway's own database (the `IdentityStore` of
 * `@platform/gateway-identity`, which the gateway puts behind its `CachingIdentityStore`).
 */
export class IdentityRepository {
  constructor(private readonly prisma: PrismaClient) {}

  countOrganizations(): Promise<number> {
    return this.prisma.organization.count();
  }

  async createFirstOrganization(
    organizationName: string,
    workspaceName: string,
    key: Omit<NewApiKey, 'organizationId' | 'workspaceId'>,
  ): Promise<{ organization: Organization; workspace: Workspace } | null> {
    try {
      return await this.prisma.$transaction(async (tx) => {
        // Serialises concurrent first starts; the loser then sees the winner's organization.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(7311000001)`;
        if ((await tx.organization.count()) > 0) return null;
        const organization = await tx.organization.create({ data: { name: organizationName } });
        const workspace = await tx.workspace.create({ data: { organizationId: organization.id, name: workspaceName } });
        await tx.apiKey.create({ data: { ...key, organizationId: organization.id, workspaceId: null } });
        return { organization, workspace: toWorkspace(workspace) };
      });
    } catch (err) {
      const mapped = mapPrismaError(err);
      if (mapped instanceof ConflictError) return null;
      throw mapped;
    }
  }

  /** In the transaction of a change: every gateway replica hears of it once it is committed (their caches). */
  private announce(change: IdentityChange) {
    return this.prisma.$executeRaw`SELECT pg_notify(${IDENTITY_CHANGES_CHANNEL}, ${JSON.stringify(change)})`;
  }

  async createWorkspace(organizationId: string, name: string): Promise<Workspace> {
    const [workspace] = await this.prisma
      .$transaction([this.prisma.workspace.create({ data: { organizationId, name } }), this.announce({ kind: 'workspaces', organizationId })])
      .catch(rethrow('A workspace with this name already exists'));
    return toWorkspace(workspace);
  }

  async findWorkspace(id: string): Promise<Workspace | null> {
    const row = await this.prisma.workspace.findUnique({ where: { id } });
    return row && toWorkspace(row);
  }

  async listWorkspaces(organizationId: string): Promise<Workspace[]> {
    return (await this.prisma.workspace.findMany({ where: { organizationId }, ...orderByCreation })).map(toWorkspace);
  }

  /** Replaces the workspace's own limits; every replica drops its cached copy (the organization's workspaces). */
  async setWorkspaceLimits(id: string, limits: WorkspaceLimitOverrides): Promise<Workspace> {
    return this.prisma
      .$transaction(async (tx) => {
        const row = await tx.workspace.update({ where: { id }, data: { limits } });
        await tx.$executeRaw`SELECT pg_notify(${IDENTITY_CHANGES_CHANNEL}, ${JSON.stringify({ kind: 'workspaces', organizationId: row.organizationId } satisfies IdentityChange)})`;
        return toWorkspace(row);
      })
      .catch(rethrow('Workspace conflict', 'Workspace not found'));
  }

  async createApiKey(key: NewApiKey): Promise<ApiKeyRecord> {
    return toApiKey(await this.prisma.apiKey.create({ data: key }).catch(rethrow('API key already exists', 'API key not found')));
  }

  async findApiKeyByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    const row = await this.prisma.apiKey.findUnique({ where: { keyHash } });
    return row && toApiKey(row);
  }

  async findApiKey(id: string): Promise<ApiKeyRecord | null> {
    const row = await this.prisma.apiKey.findUnique({ where: { id } });
    return row && toApiKey(row);
  }

  async listApiKeys(organizationId: string): Promise<ApiKeyRecord[]> {
    return (await this.prisma.apiKey.findMany({ where: { organizationId }, ...orderByCreation })).map(toApiKey);
  }

  async revokeApiKey(id: string, at: Date): Promise<void> {
    await this.prisma
      .$transaction([this.prisma.apiKey.update({ where: { id }, data: { revokedAt: at } }), this.announce({ kind: 'api-key', id })])
      .catch(rethrow('API key already exists', 'API key not found'));
  }

  async touchApiKey(id: string, at: Date): Promise<void> {
    await this.prisma.apiKey.updateMany({ where: { id }, data: { lastUsedAt: at } });
  }

  async createBrowserSession(session: NewBrowserSession, now: Date): Promise<BrowserSession> {
    // Sign-ins are rare: the moment to forget sessions that ended long ago.
    await this.prisma.browserSession.deleteMany({ where: { expiresAt: { lt: new Date(now.getTime() - 24 * 3600_000) } } });
    return toBrowserSession(await this.prisma.browserSession.create({ data: { ...session, createdAt: now } }));
  }

  async findBrowserSession(tokenHash: string): Promise<BrowserSession | null> {
    const row = await this.prisma.browserSession.findUnique({ where: { tokenHash } });
    return row && toBrowserSession(row);
  }

  async setBrowserSessionWorkspace(id: string, workspaceId: string): Promise<void> {
    await this.prisma
      .$transaction([this.prisma.browserSession.update({ where: { id }, data: { workspaceId } }), this.announce({ kind: 'session', id })])
      .catch(rethrow('Session already exists', 'Session not found'));
  }

  async revokeBrowserSession(id: string, at: Date): Promise<void> {
    await this.prisma.$transaction([
      this.prisma.browserSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: at } }),
      this.announce({ kind: 'session', id }),
    ]);
  }
}
