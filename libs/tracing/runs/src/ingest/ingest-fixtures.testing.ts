import { randomUUID } from 'node:crypto';
import type { RunProjects } from './ingest-runs.usecase';

/** Projects for ingest tests: names get ids on first use; ids are known once named or added. */
export class TestProjects implements RunProjects {
  readonly byName = new Map<string, string>();
  readonly ids = new Set<string>();

  async ensureNamed(_tenantId: string, names: string[]): Promise<Map<string, string>> {
    for (const name of names) if (!this.byName.has(name)) this.add(name);
    return new Map(names.map((n) => [n, this.byName.get(n)!]));
  }

  async existingIds(_tenantId: string, ids: string[]): Promise<Set<string>> {
    return new Set(ids.filter((id) => this.ids.has(id)));
  }

  add(name: string): string {
    const id = randomUUID();
    this.byName.set(name, id);
    this.ids.add(id);
    return id;
  }
}

/** `YYYYMMDDTHHMMSSffffffZ<id>` for the n-th microsecond after 2024-05-01T12:00:00Z. */
export const segment = (id: string, n = 0) => `20240501T120000${String(n).padStart(6, '0')}Z${id}`;

/** A trace shape for tests: ids and dotted orders of a root chain, a child chain and LLM runs under them. */
export function traceOf(...shape: [name: string, parent: string | null][]) {
  const runs = new Map<string, { id: string; dotted_order: string; parent_run_id?: string; trace_id: string }>();
  let rootId = '';
  shape.forEach(([name, parent], i) => {
    const id = randomUUID();
    const up = parent ? runs.get(parent)! : undefined;
    if (!up) rootId = id;
    runs.set(name, {
      id,
      trace_id: up ? up.trace_id : id,
      dotted_order: up ? `${up.dotted_order}.${segment(id, i)}` : segment(id, i),
      ...(up ? { parent_run_id: up.id } : {}),
    });
  });
  return { rootId, runs };
}
