export * from './destination-json';
export * from './destination.schema';
export * from './create-destination.usecase';
export * from './list-destinations.usecase';
export * from './get-destination.usecase';
export * from './update-destination-credentials.usecase';
export type { DestinationsDeps } from './destinations.deps';
