export type { Database, DriverAdapterFactory, NotificationHandler, Notifications, SqlRunner, SqlSession } from './database.types';
export { openDatabase, type OpenDatabaseOptions } from './open-database';
export { migrate, type MigrationLogger } from './migration-runner';
export { MigrationError } from './migration.error';
export { findMigrationsDir } from './migrations-dir';
export { createPrismaClient, type PrismaClientClass } from './prisma-client.factory';
export { mapPrismaError, type PrismaErrorMessages } from './prisma-error.mapper';
export { createScratchPostgresDatabase, type ScratchDatabase } from './scratch-database';
export { openServiceDatabase, type ServiceDatabase, type ServiceDatabaseOptions } from './service-database';
