// The repository and its records are in the data-access lib; re-exported here, where their callers import them.
export {
  createThreadRepository,
  THREAD_SORT_FIELDS,
  THREAD_STATUSES,
  type NewThread,
  type OnConflict,
  type SortOrder,
  type Thread,
  type ThreadFilter,
  type ThreadInterrupt,
  type ThreadQuery,
  type ThreadRepository,
  type ThreadSortBy,
  type ThreadStatus,
} from '@platform/agent-server-data-access';
export * from './thread';
export * from './thread-state';
export {
  configToCheckpoint,
  emptyThreadState,
  interruptsByTask,
  stateSnapshotToThreadState,
  taskConfigToCheckpoint,
} from './state-snapshot.mapper';
export {
  createThreadStateService,
  type HistoryQuery,
  type StateUpdate,
  type Superstep,
  type ThreadStateService,
  type ThreadStateServiceDeps,
} from './thread-state.service';
export { createThread, type CreateThreadInput } from './create-thread.usecase';
export { pruneThreads, type PruneStrategy } from './prune-threads.usecase';
export { commandFromJson, type CommandJson } from './command-from-json';
export { graphInputError } from './graph-errors';
export { isThreadStateField, selectStateFields, selectThreadFields, THREAD_STATE_FIELDS } from './thread-projection';
export { extractFields, parseExtractPath, type ExtractStep } from './thread-extract';
