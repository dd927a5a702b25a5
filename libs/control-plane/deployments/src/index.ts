export * from './deployment';
export * from './deployments.usecases';
export * from './prisma-deployment.store';
