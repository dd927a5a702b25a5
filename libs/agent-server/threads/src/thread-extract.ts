import type { Thread } from '@platform/agent-server-data-access';
import { InputError } from '@platform/errors';

/** One step of an extract path: an object key or an array index. */
export type ExtractStep = string | number;
type Step = ExtractStep;

const FIRST = /^[^.[\]]+/;
const NEXT = /^(?:\.([^.[\]]+)|\[(-?\d+)\])/;

/**
 * The steps of an extract path, `field(.key|[index])*`: `values.messages[-1].content` → `values, messages, -1,
 * content` (a negative index counts from the end). Anything else is the caller's mistake.
 */
export function parseExtractPath(path: string): Step[] {
  const invalid = () => new InputError(`Invalid extract path "${path}": use keys joined by "." and [index], e.g. values.messages[-1]`);
  const first = FIRST.exec(path);
  if (!first) throw invalid();
  const steps: Step[] = [first[0]];
  let rest = path.slice(first[0].length);
  while (rest !== '') {
    const next = NEXT.exec(rest);
    if (!next) throw invalid();
    steps.push(next[1] ?? Number(next[2]));
    rest = rest.slice(next[0].length);
  }
  return steps;
}

function step(value: unknown, key: Step): unknown {
  if (typeof key === 'number') {
    if (!Array.isArray(value)) return undefined;
    return value.at(key);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  return (value as Record<string, unknown>)[key];
}

/** `{alias: value at path}` from the thread's fields; a path leading nowhere gives null. */
export function extractFields(thread: Thread, paths: Record<string, Step[]>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(paths).map(([alias, steps]) => [alias, steps.reduce<unknown>(step, thread) ?? null]),
  );
}
