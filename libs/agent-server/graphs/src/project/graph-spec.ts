import type { z } from 'zod';
import type { graphEntrySchema } from './langgraph-config.schema';

export interface GraphSpec {
  /** The file as written in langgraph.json, relative to it. */
  file: string;
  /** The export holding the graph (`default` when the spec names none). */
  exportName: string;
  description?: string;
}

/** `"./src/agent.ts:graph"` or `{path, description}` → file, export and description. */
export function parseGraphSpec(entry: z.infer<typeof graphEntrySchema>): GraphSpec {
  const spec = typeof entry === 'string' ? entry : entry.path;
  const description = typeof entry === 'string' ? undefined : entry.description;
  // The export follows the last colon after the last path separator (a path may hold a drive letter).
  const colon = spec.lastIndexOf(':');
  const hasExport = colon > Math.max(spec.lastIndexOf('/'), spec.lastIndexOf('\\'));
  const file = hasExport ? spec.slice(0, colon) : spec;
  const exportName = hasExport ? spec.slice(colon + 1).trim() : '';
  return { file, exportName: exportName || 'default', description };
}
