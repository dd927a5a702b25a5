export { PrismaCheckpointSaver } from './prisma-checkpoint.saver';
export { DelegatingCheckpointSaver } from './delegating-checkpoint.saver';
