export { PrismaCheckpointSaver } from './prisma-checkpoint.saver';
