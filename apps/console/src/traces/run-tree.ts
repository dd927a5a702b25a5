/** The fields of a run the tree needs (langsmith's `Run` has them). */
export interface TreeRun {
  id: string;
  parent_run_id?: string | null;
  dotted_order?: string | null;
  start_time?: string | number | null;
}

export interface TreeRow<R extends TreeRun> {
  run: R;
  depth: number;
}

/**
 * A trace's runs in tree order (each run followed by its children, oldest first), with their depth. `dotted_order`
 * sorts depth-first already; runs without one (older clients) fall back to their parent links.
 */
export function runTree<R extends TreeRun>(runs: R[]): Array<TreeRow<R>> {
  if (runs.every((r) => r.dotted_order)) {
    return [...runs]
      .sort((a, b) => ((a.dotted_order as string) < (b.dotted_order as string) ? -1 : 1))
      .map((run) => ({ run, depth: (run.dotted_order as string).split('.').length - 1 }));
  }
  const ids = new Set(runs.map((r) => r.id));
  const children = new Map<string | null, R[]>();
  for (const r of runs) {
    const parent = r.parent_run_id && ids.has(r.parent_run_id) ? r.parent_run_id : null;
    children.set(parent, [...(children.get(parent) ?? []), r]);
  }
  const time = (r: R) => new Date(r.start_time ?? 0).getTime();
  const rows: Array<TreeRow<R>> = [];
  const walk = (parent: string | null, depth: number) => {
    for (const run of (children.get(parent) ?? []).sort((a, b) => time(a) - time(b))) {
      rows.push({ run, depth });
      walk(run.id, depth + 1);
    }
  };
  walk(null, 0);
  return rows;
}
