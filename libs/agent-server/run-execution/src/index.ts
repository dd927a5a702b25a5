export { RunExecutor } from './run-executor';
export { RunWorker } from './run-worker';
export type { RunEnded, RunQueue, RunStart } from './run-queue';
export { RunSweeper } from './run-sweeper';
export { createRunQueueRepository, readRunQueueDepth, type RunQueueRepository } from './run-queue.repository';
export { createRunTracing, type RunTracingOptions } from './run-tracing';
export { createWebhookSender, isRelativeWebhook, webhookSignature, WEBHOOK_SIGNATURE_HEADER, type WebhookOptions, type WebhookSender } from './run-webhook';
