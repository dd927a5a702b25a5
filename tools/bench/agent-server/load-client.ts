// One load-generating process of the agent-server bench (`--client-processes=N`): one client process saturates a
// core at a few hundred runs/s, so on a machine with many cores the clients are spread over processes. The parent
// sends the plan, then `go`; this process runs its share of stateless `runs.wait` calls over its clients and exits.
import { Client } from '@langchain/langgraph-sdk';
import { gatewayHeaders } from './servers';
import { waitAll, waitOnce } from './wait-once';

interface Plan {
  urls: string[];
  /** The gateway secret that signs requests to this server; none for the reference. */
  secret?: string;
  runs: number;
  concurrency: number;
  /** Where this process's run numbers start (inputs are checked by number). */
  offset: number;
}

// The parent gone (it failed or was stopped): nothing left to do.
process.once('disconnect', () => process.exit(1));

process.once('message', (plan: Plan) => {
  let n = 0;
  const client = () => {
    const apiUrl = plan.urls[n++ % plan.urls.length];
    return new Client({ apiUrl, defaultHeaders: plan.secret ? gatewayHeaders(plan.secret) : undefined });
  };
  const clients = Array.from({ length: plan.concurrency }, client);
  // Warm-up before `go`: connections and JIT, outside the measured window.
  void Promise.all(clients.map((c, i) => waitOnce(c, plan.offset + i))).then(
    () => {
      process.send?.('ready');
      process.once('message', async () => {
        const cpuBefore = process.cpuUsage();
        await waitAll(clients, plan.runs, plan.offset);
        const cpu = process.cpuUsage(cpuBefore);
        // This process's CPU seconds in the measured window: it exits next, when /proc can no longer tell.
        process.send?.({ done: (cpu.user + cpu.system) / 1e6 }, () => process.exit(0));
      });
    },
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
});
