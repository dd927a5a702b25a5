/** The header a client names its A2A protocol version in (A2A 1.0); without it, a request speaks 0.3. */
export const A2A_VERSION_HEADER = 'A2A-Version';

/** The protocol versions served, as agent cards announce them. */
export const A2A_VERSIONS = ['1.0', '0.3'] as const;
export type A2aVersion = (typeof A2A_VERSIONS)[number];

/**
 * The version a request speaks: no header (or an empty one) and `0.3[.x]` are 0.3, `1.x` is 1.0 (minor versions of
 * one major are compatible); anything else is `undefined`, to be answered with VersionNotSupportedError.
 */
export function a2aVersionOf(header: string | undefined): A2aVersion | undefined {
  const value = header?.trim() ?? '';
  if (value === '') return '0.3';
  const match = /^(\d+)(?:\.(\d+))?(?:\.\d+)?$/.exec(value);
  if (!match) return undefined;
  const [major, minor] = [Number(match[1]), Number(match[2] ?? 0)];
  if (major === 1) return '1.0';
  if (major === 0 && minor === 3) return '0.3';
  return undefined;
}
