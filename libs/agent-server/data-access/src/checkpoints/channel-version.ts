/**
 * Next channel version as `<32-digit counter>.<random>`, as the official Postgres savers do: channel blobs are
 * keyed by (channel, version), and a run forked from an older checkpoint would otherwise reuse a plain integer
 * version with a different value and overwrite (or be shadowed by) the blob of the original branch.
 */
export function nextChannelVersion(current: string | number | undefined): string {
  const counter = current === undefined ? 0 : typeof current === 'number' ? current : Number.parseInt(current.split('.')[0] ?? '0', 10);
  return `${String(counter + 1).padStart(32, '0')}.${Math.random().toFixed(16).slice(2)}`;
}
