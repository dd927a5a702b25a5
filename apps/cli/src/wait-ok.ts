const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `GET <url>/ok` until it answers 200; false when `gaveUp()` says to stop first. */
export async function waitOk(url: string, gaveUp: () => boolean): Promise<boolean> {
  while (!gaveUp()) {
    try {
      const res = await fetch(`${url}/ok`, { signal: AbortSignal.timeout(2_000) });
      if (res.ok) return true;
    } catch {
      // Not listening yet.
    }
    await sleep(200);
  }
  return false;
}
