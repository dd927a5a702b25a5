import type { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { LangChainTracer } from '@langchain/core/tracers/tracer_langchain';
import { Client } from 'langsmith';
import type { RunRecord } from '@platform/agent-server-run-records';

export interface RunTracingOptions {
  /** The LangSmith-compatible API (our tracing service through the gateway: `<gateway>/api/v1`). */
  endpoint: string;
  apiKey?: string;
  /** The deployment's project; a run's `langsmith_tracer.project_name` gets a replica of its trace as well. */
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
      const project = configurable['langsmith_project'];
      if (typeof project !== 'string') return [new LangChainTracer({ client, projectName: options.project })];
      // A run's own project gets a replica of the trace (tied to its example), the deployment's project the original.
      const exampleId = configurable['langsmith_example_id'];
      const example = typeof exampleId === 'string' ? { reference_example_id: exampleId } : undefined;
      return [new LangChainTracer({ client, replicas: [[project, example], [options.project, undefined]] })];
    },
    flush: () => client.awaitPendingTraceBatches(),
  };
}
