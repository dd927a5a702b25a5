export * from './run-row';
export * from './run-json';
export * from './stream';
export * from './query';
export * from './ingest';
export * from './runs.repository';
export * from './attachments';
export * from './v2';
