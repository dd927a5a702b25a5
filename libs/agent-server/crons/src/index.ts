export * from './cron';
export { createCronRepository, type CronRepository, type CronState } from './crons.repository';
export type { CronAssistantResolver, CronsDeps } from './crons.deps';
export { createCron, checkSchedule, type CreateCronInput } from './create-cron.usecase';
export { updateCron } from './update-cron.usecase';
export { searchCrons, countCrons } from './search-crons.usecase';
export { isTimeZone, nextRunAfter, scheduleProblem } from './cron-schedule';
export {
  CronScheduler,
  firingRequest,
  type CreateCronRun,
  type CronFiring,
  type CronRunRequest,
  type CronRunTarget,
  type CronSchedulerOptions,
} from './cron-scheduler';
