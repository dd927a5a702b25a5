export * from './tracing-project';
export * from './projects.usecases';
export * from './prisma-tracing-project.store';
