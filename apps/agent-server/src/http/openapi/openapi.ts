import { openApiDocument, type DeclaredRoute } from '@platform/openapi';
import { probePaths } from './probes.paths';

const TAGS = [
  ['Assistants', 'Configured instances of a graph'],
  ['Threads', 'Accumulated outputs of a group of runs'],
  ['Thread Runs', 'Invocations of a graph/assistant on a thread'],
  ['Stateless Runs', 'Invocations with no state persistence'],
  ['Crons', 'Periodic runs on a schedule'],
  ['Store', 'Persistent key-value store for long-term memory'],
  ['A2A', 'Agent-to-Agent Protocol endpoints'],
  ['MCP', 'Model Context Protocol endpoints'],
  ['System', 'Health checks and server info'],
] as const;

/**
 * The OpenAPI 3.1 description of the Agent Server API (`GET /openapi.json`): every operation generated from the
 * declared routes' schemas (`routes`), and the probes and docs the shared libs serve (probes.paths.ts).
 */
export function agentServerOpenApi(options: { version: string; routes: readonly DeclaredRoute[] }): Record<string, unknown> {
  const declared = openApiDocument({ title: 'Agent Server', version: options.version }, options.routes);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Agent Server',
      version: options.version,
      description:
        'Runs the graphs of a LangGraph deployment as assistants, on threads or stateless, with streaming, crons and a store. ' +
        'Compatible with `@langchain/langgraph-sdk`. Wherever an `assistant_id` is taken, a graph id works too.',
    },
    tags: TAGS.map(([name, description]) => ({ name, description })),
    paths: {
      ...declared.paths,
      ...probePaths,
    },
    components: {
      schemas: declared.components.schemas,
      securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key', description: 'An API key of the organization hosting the deployment' } },
    },
    security: [{ apiKey: [] }],
  };
}
