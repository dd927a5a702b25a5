import type { ChildProcess } from 'node:child_process';
import { killDescendants } from '@platform/http-server';

/** A signal this soon after the first is the same request delivered again (npm/npx forward the terminal's). */
const DUPLICATE_SIGNAL_MS = 2_000;

/**
 * Passes this process's SIGINT/SIGTERM on to `child` (started `detached`, so the terminal's Ctrl-C reaches it only
 * this way, once) and lets it stop; a later signal kills everything below this process at once. The child watches
 * this process (PLATFORM_PARENT_PID) and stops by itself if this process dies. Resolves with the child's exit code,
 * once nothing runs below this process any more.
 */
export async function superviseChild(child: ChildProcess, stopSignal: NodeJS.Signals | 'same' = 'same'): Promise<number> {
  let since: number | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    if (since === undefined) {
      since = Date.now();
      child.kill(stopSignal === 'same' ? signal : stopSignal);
    } else if (Date.now() - since >= DUPLICATE_SIGNAL_MS) {
      void killDescendants(process.pid, 'SIGKILL');
    }
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  const code = await new Promise<number>((resolve) => {
    child.on('error', () => resolve(1));
    child.on('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
  });
  // What the child left behind in its process group (tsx's node under it) goes with it.
  await killDescendants(process.pid, 'SIGKILL');
  process.off('SIGINT', onSignal);
  process.off('SIGTERM', onSignal);
  return code;
}
