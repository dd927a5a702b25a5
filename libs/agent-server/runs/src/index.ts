export { createRunService, type RunService, type RunServiceDeps, type RunSettings, type RunTarget } from './runs.service';
export type { RunTracingOptions } from './run-tracing';
export { readRunQueueDepth } from './run-queue.repository';
