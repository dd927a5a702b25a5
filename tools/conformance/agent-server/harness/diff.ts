/** A value one side lacks (a key only the other has, or an array item past its end). */
export const ABSENT: unique symbol = Symbol('absent');

export type Side = unknown | typeof ABSENT;

/** One place where two normalised values differ. */
export interface Difference {
  /** `$.tasks[0].checkpoint` */
  path: string;
  reference: Side;
  ours: Side;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every place where `ours` differs from `reference`, deepest first reached; equal values give none. */
export function diff(reference: Side, ours: Side, path = '$'): Difference[] {
  if (Array.isArray(reference) && Array.isArray(ours)) {
    const out: Difference[] = [];
    for (let i = 0; i < Math.max(reference.length, ours.length); i++) {
      out.push(...diff(i < reference.length ? reference[i] : ABSENT, i < ours.length ? ours[i] : ABSENT, `${path}[${i}]`));
    }
    return out;
  }
  if (isObject(reference) && isObject(ours)) {
    const keys = [...new Set([...Object.keys(reference), ...Object.keys(ours)])].sort();
    return keys.flatMap((key) =>
      diff(key in reference ? reference[key] : ABSENT, key in ours ? ours[key] : ABSENT, `${path}.${/^[\w$]+$/.test(key) ? key : JSON.stringify(key)}`),
    );
  }
  if (reference === ours) return [];
  return [{ path, reference, ours }];
}

/** A side as one short line. */
export function show(value: Side, max = 160): string {
  if (value === ABSENT) return '(absent)';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
