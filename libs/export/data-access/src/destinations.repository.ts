import type { CredentialCipher, S3Credentials } from '@platform/export-s3';
import type { PrismaClient } from './generated/prisma/client';
import type { Destination, DestinationConfig } from './destination';

type Row = Awaited<ReturnType<PrismaClient['bulkExportDestination']['findUniqueOrThrow']>>;

export const destinationContext = (id: string) => `destination:${id}`;

function toDestination(row: Row): Destination {
  return {
    id: row.id,
    tenantId: row.tenantId,
    type: row.type,
    displayName: row.displayName,
    config: row.config as unknown as DestinationConfig,
    credentialsKeys: row.credentialsKeys,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Destinations in the export database; credentials are encrypted here and only here. */
export class DestinationsRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly cipher: CredentialCipher,
  ) {}

  async create(input: {
    id: string;
    tenantId: string;
    displayName: string;
    config: DestinationConfig;
    credentials: S3Credentials | null;
    credentialsKeys: string[];
  }): Promise<Destination> {
    const row = await this.prisma.bulkExportDestination.create({
      data: {
        id: input.id,
        tenantId: input.tenantId,
        type: 's3',
        displayName: input.displayName,
        config: input.config as object,
        credentialsEncrypted: input.credentials ? this.cipher.encryptJson(input.credentials, destinationContext(input.id)) : null,
        credentialsKeys: input.credentialsKeys,
      },
    });
    return toDestination(row);
  }

  async list(tenantId: string, limit: number, offset: number): Promise<Destination[]> {
    const rows = await this.prisma.bulkExportDestination.findMany({
      where: { tenantId },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      take: limit,
      skip: offset,
    });
    return rows.map(toDestination);
  }

  async find(tenantId: string, id: string): Promise<Destination | null> {
    const row = await this.prisma.bulkExportDestination.findFirst({ where: { id, tenantId } });
    return row && toDestination(row);
  }

  async updateCredentials(
    id: string,
    input: { credentials: S3Credentials; credentialsKeys: string[]; displayName?: string },
  ): Promise<Destination> {
    const row = await this.prisma.bulkExportDestination.update({
      where: { id },
      data: {
        credentialsEncrypted: this.cipher.encryptJson(input.credentials, destinationContext(id)),
        credentialsKeys: input.credentialsKeys,
        ...(input.displayName ? { displayName: input.displayName } : {}),
      },
    });
    return toDestination(row);
  }
}

/** Decrypts a destination row's credentials (null = default credential chain). */
export function decryptDestinationCredentials(
  cipher: CredentialCipher,
  row: { id: string; credentialsEncrypted: string | null },
): S3Credentials | null {
  return row.credentialsEncrypted ? cipher.decryptJson<S3Credentials>(row.credentialsEncrypted, destinationContext(row.id)) : null;
}
