// The saver on the database lives with the client in the data-access lib; this lib adds the per-run delegate.
export { PrismaCheckpointSaver } from '@platform/agent-server-data-access/checkpoint-saver';
export { DelegatingCheckpointSaver } from './delegating-checkpoint.saver';
