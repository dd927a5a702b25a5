export * from './tracing-project';
export * from './create-project.usecase';
export * from './list-projects.usecase';
export * from './get-project.usecase';
export * from './update-project.usecase';
export * from './delete-project.usecase';
export { projectIdFromPath } from './projects.deps';
