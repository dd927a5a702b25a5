export * from './system-assistant-id';
