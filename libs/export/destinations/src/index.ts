export * from './destination-json';
export * from './destination.schema';
export * from './destinations.usecases';
