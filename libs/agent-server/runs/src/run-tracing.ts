import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { LangChainTracer } from '@langchain/core/tracers/tracer_langchain';
import { Client } from 'langsmith';
import type { RunRecord } from './run';

export interface RunTracingOptions {
  /** The LangSmith-compatible API (our tracing service through the gateway: `<gateway>/api/v1`). */
  endpoint: string;
  apiKey?: string;
  /** Default project; a run's `langsmith_tracer.project_name` overrides it. */
  project: string;
  /** Sent as X-Tenant-Id, for organisation-wide keys. */
  workspaceId?: string;
}

/** Traces runs with LangChain's standard tracer, each run a trace whose root id is the run id. */
export interface RunTracing {
  callbacks(run: RunRecord): BaseCallbackHandler[];
  /** Waits until every trace batch sent so far is delivered (before a run is reported done). */
  flush(): Promise<void>;
}

export function createRunTracing(options: RunTracingOptions): RunTracing {
  const client = new Client({ apiUrl: options.endpoint, apiKey: options.apiKey, workspaceId: options.workspaceId });
  return {
    callbacks(run) {
      const configurable = run.kwargs.config.configurable;
      const project = typeof configurable['langsmith_project'] === 'string' ? configurable['langsmith_project'] : options.project;
      return [new LangChainTracer({ client, projectName: project })];
    },
    flush: () => client.awaitPendingTraceBatches(),
  };
}
