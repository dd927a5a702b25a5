export { createRunService, type RunService, type RunServiceDeps, type RunSettings, type RunTarget } from './runs.service';
