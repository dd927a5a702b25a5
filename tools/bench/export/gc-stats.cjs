// Preloaded into a benchmarked process (node --require) with BENCH_GC_STATS=<dir>: counts its garbage collections
// by kind and their pause time, and writes them to <dir>/gc.<pid>.json when the process exits.
const { PerformanceObserver, constants } = require('node:perf_hooks');
const { writeFileSync } = require('node:fs');
const path = require('node:path');

const dir = process.env.BENCH_GC_STATS;
if (dir) {
  const names = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: 'scavenge',
    [constants.NODE_PERFORMANCE_GC_MAJOR]: 'mark-compact',
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental marking',
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
  };
  const stats = {};
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const name = names[entry.detail?.kind] ?? String(entry.detail?.kind);
      const s = (stats[name] ??= { count: 0, ms: 0 });
      s.count++;
      s.ms += entry.duration;
    }
  }).observe({ entryTypes: ['gc'] });
  process.on('exit', () => {
    const heap = process.memoryUsage();
    writeFileSync(path.join(dir, `gc.${process.pid}.json`), JSON.stringify({ stats, heapUsedMb: heap.heapUsed / 2 ** 20, externalMb: heap.external / 2 ** 20 }, null, 1));
  });
}
