/** Why a job was aborted; decides what becomes of the step it was in. */
export type AbortReason = 'shutdown' | 'lease-lost' | 'superseded' | 'interrupted' | 'deleted';

export function abortReason(signal: AbortSignal): AbortReason | undefined {
  return signal.aborted ? (signal.reason as AbortReason) : undefined;
}
