import type { TargetSession } from './target';

/** Who works on the part of issue 17 that a call (or a difference) belongs to. */
export type Owner = 'auth' | 'http' | 'introspect' | 'conform' | 'v3stream' | 'versions';

/** The parts of issue 17 (and the core API around them), in the order the report prints them. */
export const SECTIONS = {
  core: { title: 'core: assistants, threads, runs, streaming, store', owner: 'conform' },
  auth: { title: '§1 custom authentication (auth.path)', owner: 'auth' },
  http: { title: '§2 custom routes and HTTP options (http.app)', owner: 'http' },
  ui: { title: '§3 generative UI (ui)', owner: 'http' },
  introspect: { title: '§4 graph introspection (schemas, subgraphs, factories)', owner: 'introspect' },
  wire: { title: '§5 wire shapes (state, checkpoints, debug/tasks/checkpoints streams, errors, /info)', owner: 'conform' },
  v3: { title: '§6 thread-centric streaming (SDK 1.15, v3)', owner: 'v3stream' },
  metadata: { title: '§7 run and checkpoint metadata', owner: 'conform' },
} as const satisfies Record<string, { title: string; owner: Owner }>;

export type Section = keyof typeof SECTIONS;

/** One call of the script: what it observes of a server, as JSON. */
export interface Step {
  section: Section;
  name: string;
  run: (t: TargetSession) => Promise<unknown>;
}

/** Builds the steps of one section. */
export function section(name: Section, steps: Record<string, Step['run']>): Step[] {
  return Object.entries(steps).map(([stepName, run]) => ({ section: name, name: stepName, run }));
}
