export { createRunEventRepository, eventColumns, INSERT_EVENTS_SQL, insertEventsIn, type RunEventRepository } from './run-events.repository';
export { RunEventLog } from './run-event-log';
export { RunStreamHub, type SubscribeFrom } from './run-stream-hub';
export type { RunSubscription } from './run-subscription';
export { StreamMapper, type MappedEvent } from './stream-mapper';
export { threadStream, type ThreadStreamEvent, type ThreadStreamFrom } from './thread-stream';
export { ThreadWake } from './thread-wake';
