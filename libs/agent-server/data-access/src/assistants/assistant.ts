import type { SortOrder } from '../sort-order';

/** An assistant as the Agent Server API shows it: a graph with its own config, context and metadata. */
export interface Assistant {
  assistant_id: string;
  graph_id: string;
  config: Record<string, unknown>;
  context: Record<string, unknown>;
  metadata: Record<string, unknown>;
  version: number;
  name: string;
  description: string | null;
  created_at: string;
  updated_at: string;
}

/** One saved version of an assistant (`POST /assistants/{id}/versions`). */
export type AssistantVersion = Omit<Assistant, 'updated_at'>;

export interface NewAssistant {
  assistant_id: string;
  graph_id: string;
  name: string;
  description?: string | null;
  config?: Record<string, unknown>;
  context?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

/** What a PATCH changes: given fields replace the current ones, except `metadata`, which is merged in. */
export interface AssistantChanges {
  graph_id?: string;
  name?: string;
  description?: string | null;
  config?: Record<string, unknown>;
  context?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
}

export interface AssistantFilter {
  /** JSONB containment: every key/value given must be in the assistant's metadata. */
  metadata?: Record<string, unknown>;
  graph_id?: string;
  /** Case-insensitive substring of the name. */
  name?: string;
}

export const ASSISTANT_SORT_FIELDS = ['assistant_id', 'graph_id', 'name', 'created_at', 'updated_at'] as const;
export type AssistantSortBy = (typeof ASSISTANT_SORT_FIELDS)[number];

export interface AssistantQuery extends AssistantFilter {
  limit: number;
  offset: number;
  /** Default `created_at`, newest first. */
  sortBy?: AssistantSortBy;
  sortOrder?: SortOrder;
}

export interface VersionQuery {
  metadata?: Record<string, unknown>;
  limit: number;
  offset: number;
}
