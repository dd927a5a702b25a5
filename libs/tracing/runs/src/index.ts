export * from './run-row';
export * from './run-json';
