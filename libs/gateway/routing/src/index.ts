export * from './route-table';
export * from './deployment-resolver';
