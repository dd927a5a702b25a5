export * from './bulk-export';
export * from './exports.usecases';
export * from './prisma-bulk-export.store';
