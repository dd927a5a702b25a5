export * from './api-key';
export * from './identity.store';
export * from './authenticate.usecase';
export * from './bootstrap.usecase';
export * from './admin.usecases';
export * from './prisma-identity.store';
export * from './service-keys.usecases';
