import { z } from 'zod';

/** A TCP port; `0` asks the OS for a free one. */
export const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

/** `true/1/yes/on` or `false/0/no/off`, case-insensitive. */
export const flag = (fallback: boolean) =>
  z
    .string()
    .trim()
    .toLowerCase()
    .refine((v) => ['true', '1', 'yes', 'on', 'false', '0', 'no', 'off'].includes(v), 'must be true or false')
    .transform((v) => ['true', '1', 'yes', 'on'].includes(v))
    .optional()
    .transform((v) => v ?? fallback);

/** A URL with one of the given protocols, e.g. `url(['postgres:', 'postgresql:'])`. */
export const url = (protocols?: string[]) =>
  z.string().refine((v) => {
    try {
      const parsed = new URL(v);
      return !protocols || protocols.includes(parsed.protocol);
    } catch {
      return false;
    }
  }, protocols ? `must be a ${protocols.join(' or ')} URL` : 'must be a URL');

/** A duration in milliseconds given as a number or with a unit: `500ms`, `30s`, `10m`, `4h`, `3d`. */
export const duration = (fallbackMs: number) =>
  z
    .string()
    .trim()
    .refine((v) => parseDuration(v) !== undefined, 'must be a duration such as 500ms, 30s, 10m, 4h')
    .transform((v) => parseDuration(v) as number)
    .optional()
    .transform((v) => v ?? fallbackMs);

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(text: string): number | undefined {
  const match = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?$/.exec(text.trim());
  if (!match) return undefined;
  return Math.round(Number(match[1]) * UNITS[match[2] ?? 'ms']);
}

export const logLevel = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info');
