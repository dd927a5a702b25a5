// Top self-time functions of a V8 CPU profile (`node --cpu-prof`, or run.ts with BENCH_PROFILE=<dir>), optionally
// as µs per exported row:
//   npx tsx tools/bench/export/profile-top.ts <file.cpuprofile> [--rows=100000] [--top=25] [--from=S]
// --from=S counts only samples from S seconds after the profile's start (e.g. to leave out a worker's start-up: the
// busy share per second, printed first, shows where the export began).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { intOption, option } from '../options';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const file = process.argv.slice(2).find((a) => !a.startsWith('--'));
if (!file) throw new Error('usage: profile-top.ts <file.cpuprofile> [--rows=N] [--top=N]');
const rows = Number(option('rows', '0'));
const top = intOption('top', 25);
const fromUs = Number(option('from', '0')) * 1e6;
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
// Self time per node from the samples and their time deltas (µs), then per function (name and place).
const selfUs = new Map<string, number>();
let total = 0;
let at = 0;
const busyPerSecond: number[] = [];
profile.samples.forEach((id, i) => {
  const node = byId.get(id);
  const delta = profile.timeDeltas[i] ?? 0;
  at += delta;
  if (!node) return;
  const second = Math.floor(at / 1e6);
  if (node.callFrame.functionName !== '(idle)') busyPerSecond[second] = (busyPerSecond[second] ?? 0) + delta;
  if (at < fromUs) return;
  const { functionName, url, lineNumber } = node.callFrame;
  const where = url ? `${url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '~/').replace(process.cwd() + path.sep, '')}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'} ${where}`.trim();
  selfUs.set(key, (selfUs.get(key) ?? 0) + delta);
  total += delta;
});
const busy = total - (selfUs.get('(idle)') ?? 0);
console.log(`busy % per second: ${Array.from(busyPerSecond, (us) => Math.round((us ?? 0) / 1e4)).join(' ')}`);
console.log(`${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s not idle${rows ? `, ${rows} rows` : ''}`);
console.log(`| self time | % of not idle |${rows ? ' µs per row |' : ''} function |`);
console.log(`|---:|---:|${rows ? '---:|' : ''}---|`);
for (const [key, us] of [...selfUs].filter(([k]) => k !== '(idle)').sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`| ${(us / 1e6).toFixed(2)} s | ${((100 * us) / busy).toFixed(1)}% |${rows ? ` ${(us / rows).toFixed(1)} |` : ''} ${key} |`);
}
