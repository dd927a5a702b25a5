import { Client, type TracerSession } from 'langsmith';
import { api, csrfToken } from './http';
import type { RunsPage, RunsQuery, TraceRun } from './types';

/**
 * The `langsmith` SDK on the gateway's `/api/v1`, as the browser session (its cookie goes with every request; no
 * API key here), for projects. Runs come from `/runs/query` directly: the paged table needs the cursors, which the
 * SDK's `listRuns` follows to the end instead of handing out, and the tracing service's own run shape has the
 * token costs that the SDK's `Run` type lacks.
 */
export function langsmithClient(): Client {
  return new Client({
    apiUrl: `${window.location.origin}/api/v1`,
    apiKey: undefined,
    fetchOptions: { credentials: 'same-origin', headers: { 'x-csrf-token': csrfToken() } },
    autoBatchTracing: false,
  });
}

export async function listProjects(): Promise<TracerSession[]> {
  const projects: TracerSession[] = [];
  for await (const project of langsmithClient().listProjects()) projects.push(project);
  return projects;
}

export function readProject(projectId: string): Promise<TracerSession> {
  return langsmithClient().readProject({ projectId });
}

/** One page of runs; a bad filter is a 400 whose detail says where the parser stopped. */
export function queryRuns(query: RunsQuery): Promise<RunsPage> {
  return api<RunsPage>('POST', '/api/v1/runs/query', { body: query });
}

/** Every run of a trace (at most a few thousand: one agent turn is a few dozen). */
export async function traceRuns(projectId: string, traceId: string): Promise<TraceRun[]> {
  const runs: TraceRun[] = [];
  let cursor: string | null = null;
  do {
    const page: RunsPage = await queryRuns({ session: [projectId], trace: traceId, limit: 100, cursor, order: 'asc' });
    runs.push(...page.runs);
    cursor = page.cursors.next;
  } while (cursor && runs.length < 5_000);
  return runs;
}

export function validateFilter(filter: string): Promise<{ valid: true }> {
  return api('POST', '/api/v1/runs/query/validate', { body: { filter } });
}
