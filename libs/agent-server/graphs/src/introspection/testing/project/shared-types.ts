// Types imported by annotation-graph.ts: the TypeScript extraction must follow imports across files.
export type Priority = 'low' | 'normal' | 'high';

export interface Ticket {
  /** The ticket's title. */
  title: string;
  priority: Priority;
  labels?: string[];
}
