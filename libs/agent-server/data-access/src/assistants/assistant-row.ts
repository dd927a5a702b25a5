import type { Assistant, AssistantVersion } from './assistant';

/** An `assistants` or `assistant_versions` row as the queries below select it. */
export interface AssistantRow {
  assistant_id: string;
  graph_id: string;
  name: string;
  description: string | null;
  config: unknown;
  context: unknown;
  metadata: unknown;
  version: number;
  created_at: Date | string;
  updated_at?: Date | string;
}

export const ASSISTANT_COLUMNS =
  'a.assistant_id::text AS assistant_id, a.graph_id, a.name, a.description, a.config, a.context, a.metadata, a.version, a.created_at, a.updated_at';

export const VERSION_COLUMNS =
  'v.assistant_id::text AS assistant_id, v.graph_id, v.name, v.description, v.config, v.context, v.metadata, v.version, v.created_at';

// Both adapters (pg, PGlite) hand JSONB back parsed and timestamps as Dates.
function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

const iso = (value: Date | string) => new Date(value).toISOString();

export function toAssistantVersion(row: AssistantRow): AssistantVersion {
  return {
    assistant_id: row.assistant_id,
    graph_id: row.graph_id,
    config: record(row.config),
    context: record(row.context),
    metadata: record(row.metadata),
    version: Number(row.version),
    name: row.name,
    description: row.description ?? null,
    created_at: iso(row.created_at),
  };
}

export function toAssistant(row: AssistantRow): Assistant {
  return { ...toAssistantVersion(row), updated_at: iso(row.updated_at ?? row.created_at) };
}
