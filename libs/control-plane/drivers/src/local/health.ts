/** One `GET {url}/ok`: true on a 2xx answer within `timeoutMs`. */
export async function probeOk(url: string, timeoutMs = 2_000): Promise<boolean> {
  try {
    const res = await fetch(`${url}/ok`, { signal: AbortSignal.timeout(timeoutMs) });
    await res.body?.cancel();
    return res.ok;
  } catch {
    return false;
  }
}

export type HealthOutcome = { healthy: true } | { healthy: false; reason: 'timeout' | 'exited' | 'aborted'; exitCode?: number | null };

/** Polls `/ok` until it answers, the process exits, the time is up or the work is aborted. */
export async function waitHealthy(
  url: string,
  options: { timeoutMs: number; intervalMs?: number; signal: AbortSignal; exited: () => { code: number | null } | undefined },
): Promise<HealthOutcome> {
  const deadline = Date.now() + options.timeoutMs;
  const interval = options.intervalMs ?? 200;
  for (;;) {
    if (options.signal.aborted) return { healthy: false, reason: 'aborted' };
    const exit = options.exited();
    if (exit) return { healthy: false, reason: 'exited', exitCode: exit.code };
    if (await probeOk(url, 1_000)) return { healthy: true };
    if (Date.now() >= deadline) return { healthy: false, reason: 'timeout' };
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
