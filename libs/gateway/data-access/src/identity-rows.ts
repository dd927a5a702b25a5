import type { PrismaClient } from './generated/prisma/client';
import { limitOverridesFrom } from '@platform/rate-limit';
import type { ApiKeyRecord, ApiKeyRole, BrowserSession, Workspace } from './identity';

type ApiKeyRow = Awaited<ReturnType<PrismaClient['apiKey']['findUniqueOrThrow']>>;
type WorkspaceRow = Awaited<ReturnType<PrismaClient['workspace']['findUniqueOrThrow']>>;
type BrowserSessionRow = Awaited<ReturnType<PrismaClient['browserSession']['findUniqueOrThrow']>>;

export function toBrowserSession({ tokenHash: _secret, ...session }: BrowserSessionRow): BrowserSession {
  return session;
}

export function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    organizationId: row.organizationId,
    workspaceId: row.workspaceId,
    keyPrefix: row.keyPrefix,
    description: row.description,
    role: row.role as ApiKeyRole,
    createdAt: row.createdAt,
    lastUsedAt: row.lastUsedAt,
    revokedAt: row.revokedAt,
  };
}

export function toWorkspace(row: WorkspaceRow): Workspace {
  return { id: row.id, organizationId: row.organizationId, name: row.name, createdAt: row.createdAt, limits: limitOverridesFrom(row.limits) };
}
