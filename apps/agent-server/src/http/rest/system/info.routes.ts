import { z } from 'zod';
import { LANGGRAPH_VERSION } from '@platform/agent-server-graphs';
import { route, type DeclaredRoute, type SameShape } from '@platform/openapi';
import { operationsOf } from '../../common/responses.schema';

export interface InfoOptions {
  version: string;
  deploymentId?: string;
  tracing: boolean;
}

export const infoResponse = z.object({
  version: z.string(),
  langgraph_js_version: z.string(),
  context: z.literal('js'),
  deployment_id: z.string().nullable(),
  flags: z.object({ assistants: z.boolean(), crons: z.boolean(), langsmith: z.boolean(), langsmith_tracing_replicas: z.boolean() }),
});

const infoOf = (options: InfoOptions) => ({
  version: options.version,
  langgraph_js_version: LANGGRAPH_VERSION,
  context: 'js' as const,
  deployment_id: options.deploymentId ?? null,
  flags: { assistants: true, crons: true, langsmith: options.tracing, langsmith_tracing_replicas: true },
});

const _info: SameShape<z.output<typeof infoResponse>, ReturnType<typeof infoOf>> = true;

const op = operationsOf('System');

/**
 * `GET /info`: what this Agent Server is and which optional features it serves, with the flags LangGraph's JS API
 * server announces (`crons` true: this server runs them; `langsmith_tracing_replicas`: a run's
 * `langsmith_tracer.project_name` gets a copy of its trace, the deployment's project the other).
 */
export function infoRoutes(options: InfoOptions): DeclaredRoute[] {
  const info = infoOf(options);
  return [
    route({ ...op('get', '/info', 'info', 'Server version and feature flags'), responses: { 200: { description: 'The server and its features', schema: infoResponse } } }, (_input, _req, res) => {
      res.json(info);
    }),
  ];
}
