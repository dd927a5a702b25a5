export * from './route-table';
export * from './deployment-resolver';
export * from './deployment-host';
export * from './resumable-request';
export * from './deleted-deployment';
