/** A graph as `GET /assistants/{id}/graph` answers it (the fields the drawing needs). */
export interface GraphInput {
  nodes: Array<{ id: string | number; data?: unknown }>;
  edges: Array<{ source: string | number; target: string | number; conditional?: boolean }>;
}

export interface PlacedNode {
  id: string;
  x: number;
  y: number;
  rank: number;
}

export interface PlacedEdge {
  source: string;
  target: string;
  conditional: boolean;
  /** An edge back to an earlier rank (a loop, e.g. tools → agent). */
  back: boolean;
}

export interface GraphLayout {
  nodes: PlacedNode[];
  edges: PlacedEdge[];
  width: number;
  height: number;
}

export const NODE_WIDTH = 120;
export const NODE_HEIGHT = 36;
const GAP_X = 36;
const GAP_Y = 56;
const MARGIN = 24;

/**
 * Top-down layered drawing: edges closing a cycle (found by a depth-first walk from `__start__`) are back edges; the
 * rest form a DAG whose longest path from the start gives each node its rank (row). Rows are centred.
 */
export function layoutGraph(graph: GraphInput): GraphLayout {
  const ids = graph.nodes.map((n) => String(n.id));
  const out = new Map(ids.map((id) => [id, [] as string[]]));
  for (const e of graph.edges) out.get(String(e.source))?.push(String(e.target));

  const back = new Set<string>();
  const state = new Map<string, 'open' | 'done'>();
  const visit = (id: string) => {
    state.set(id, 'open');
    for (const next of out.get(id) ?? []) {
      if (state.get(next) === 'open') back.add(`${id}->${next}`);
      else if (!state.has(next)) visit(next);
    }
    state.set(id, 'done');
  };
  const roots = ids.includes('__start__') ? ['__start__', ...ids] : ids;
  for (const id of roots) if (!state.has(id)) visit(id);

  const rank = new Map(ids.map((id) => [id, 0]));
  // Longest path over forward edges: relax |V| times (graphs here are small).
  for (let pass = 0; pass < ids.length; pass++) {
    let changed = false;
    for (const e of graph.edges) {
      const [s, t] = [String(e.source), String(e.target)];
      if (back.has(`${s}->${t}`) || !rank.has(s) || !rank.has(t)) continue;
      if ((rank.get(t) as number) < (rank.get(s) as number) + 1) {
        rank.set(t, (rank.get(s) as number) + 1);
        changed = true;
      }
    }
    if (!changed) break;
  }
  // __end__ sits alone on the last row.
  if (rank.has('__end__')) rank.set('__end__', Math.max(...[...rank.entries()].filter(([id]) => id !== '__end__').map(([, r]) => r), 0) + 1);

  const rows = new Map<number, string[]>();
  for (const id of ids) rows.set(rank.get(id) as number, [...(rows.get(rank.get(id) as number) ?? []), id]);
  const widest = Math.max(1, ...[...rows.values()].map((r) => r.length));
  const width = MARGIN * 2 + widest * NODE_WIDTH + (widest - 1) * GAP_X + NODE_WIDTH; // room for back edges on the right
  const nodes: PlacedNode[] = [];
  for (const [r, row] of [...rows.entries()].sort((a, b) => a[0] - b[0])) {
    const rowWidth = row.length * NODE_WIDTH + (row.length - 1) * GAP_X;
    const left = (width - NODE_WIDTH - rowWidth) / 2;
    row.forEach((id, i) => nodes.push({ id, rank: r, x: left + i * (NODE_WIDTH + GAP_X), y: MARGIN + r * (NODE_HEIGHT + GAP_Y) }));
  }
  const maxRank = Math.max(0, ...nodes.map((n) => n.rank));
  return {
    nodes,
    edges: graph.edges.map((e) => ({
      source: String(e.source),
      target: String(e.target),
      conditional: Boolean(e.conditional),
      back: back.has(`${String(e.source)}->${String(e.target)}`),
    })),
    width,
    height: MARGIN * 2 + (maxRank + 1) * NODE_HEIGHT + maxRank * GAP_Y,
  };
}
