import fs from 'node:fs';
import path from 'node:path';

/** Directories whose changes never reload: dependencies, VCS data, the dev server's own database. */
const IGNORED = new Set(['node_modules', '.git', '.langgraph_api', '.data', 'dist']);

export interface ProjectWatcher {
  close(): void;
}

/**
 * Calls `onChange` once a burst of file changes under `dir` has settled for `debounceMs` (an editor's save is
 * several events). One reload at a time: changes during a reload schedule one more.
 */
export function watchProject(dir: string, onChange: (files: string[]) => Promise<void>, debounceMs = 150): ProjectWatcher {
  let timer: NodeJS.Timeout | undefined;
  let pending = new Set<string>();
  let running: Promise<void> | undefined;

  const flush = async () => {
    if (running) return void running.then(schedule);
    const files = [...pending];
    pending = new Set();
    running = onChange(files).finally(() => (running = undefined));
    await running;
  };
  function schedule() {
    if (pending.size === 0) return;
    clearTimeout(timer);
    timer = setTimeout(() => void flush(), debounceMs);
  }

  const watcher = fs.watch(dir, { recursive: true }, (_event, name) => {
    if (!name) return;
    const file = name.toString();
    if (file.split(path.sep).some((part) => IGNORED.has(part))) return;
    pending.add(file);
    schedule();
  });
  return {
    close() {
      clearTimeout(timer);
      watcher.close();
    },
  };
}
