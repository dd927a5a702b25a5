import { objectKey, type S3DestinationConnection } from './s3-client';

export interface PartitionLocation {
  exportId: string;
  tenantId: string;
  sessionId: string;
  /** Any instant of the partition's UTC day (its window start). */
  day: Date;
}

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * The Hive-partitioned folder of one export run (spec rule 5):
 * `<prefix>/export_id=<id>/tenant_id=<t>/session_id=<s>/runs/year=<yyyy>/month=<mm>/day=<dd>`
 * (the bucket name leads when `include_bucket_in_prefix` is set).
 */
export function partitionPrefix(
  destination: Pick<S3DestinationConnection, 'bucket_name' | 'prefix' | 'include_bucket_in_prefix'>,
  where: PartitionLocation,
): string {
  const d = where.day;
  return objectKey(
    destination,
    `export_id=${where.exportId}`,
    `tenant_id=${where.tenantId}`,
    `session_id=${where.sessionId}`,
    'runs',
    `year=${d.getUTCFullYear()}`,
    `month=${pad(d.getUTCMonth() + 1)}`,
    `day=${pad(d.getUTCDate())}`,
  );
}
