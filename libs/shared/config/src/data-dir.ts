import fs from 'node:fs';
import path from 'node:path';

/**
 * Closes the platform's data folder (embedded databases, the internal secret) to every other user: the folder
 * itself 0711 (others may pass through to what is opened to them, e.g. the control plane's work directory, but may
 * not list it), every entry in it 0700 (folders) or 0600 (files), except the `open` ones, whose modes their owner
 * sets (the control plane's work directory: deployments' builds, databases and homes). `memory://` is left alone.
 * Folders named in `create` are made first, so a service that creates its own later finds it closed already.
 */
export function closeDataDir(dataDir: string, options: { create?: readonly string[]; open?: readonly string[] } = {}): void {
  if (dataDir.startsWith('memory://')) return;
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o711 });
  fs.chmodSync(dataDir, 0o711);
  for (const name of options.create ?? []) fs.mkdirSync(path.join(dataDir, name), { recursive: true, mode: 0o700 });
  const open = new Set(options.open ?? []);
  for (const entry of fs.readdirSync(dataDir, { withFileTypes: true })) {
    if (open.has(entry.name) || entry.isSymbolicLink()) continue;
    fs.chmodSync(path.join(dataDir, entry.name), entry.isDirectory() ? 0o700 : 0o600);
  }
}
