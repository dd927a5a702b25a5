// Workspace A's flood, in a process of its own (its client work must not share the platform's event loop): `senders`
// loops of one `batch`-run `POST /runs/batch` body each, sent as fast as answers come, never backing off on 429, until told to stop;
// replies with how many of each status it got.
import { randomUUID } from 'node:crypto';

export interface FloodJob {
  url: string;
  apiKey: string;
  workspace: string;
  senders: number;
  batch: number;
}

const runsOf = (count: number) =>
  Array.from({ length: count }, (_, i) => {
    const id = randomUUID();
    const start = new Date(Date.now() + i).toISOString();
    return { id, trace_id: id, dotted_order: `${start.replace(/[-:.]/g, '').replace('Z', '000Z')}${id}`, name: 'flood', run_type: 'chain', inputs: { i }, session_name: 'fair-a', start_time: start };
  });

let stop = false;
process.on('message', (message: { job?: FloodJob; stop?: boolean }) => {
  if (message.stop) stop = true;
  if (!message.job) return;
  const { url, apiKey, workspace, senders, batch } = message.job;
  const statuses: Record<number, number> = {};
  const sender = async () => {
    // One body per sender, sent again and again (its runs upserted), as a cheap attacker would: the flood's cost is
    // the platform's, not this client's.
    const body = JSON.stringify({ post: runsOf(batch) });
    while (!stop) {
      const res = await fetch(`${url}/api/v1/runs/batch`, {
        method: 'POST',
        headers: { 'x-api-key': apiKey, 'x-tenant-id': workspace, 'content-type': 'application/json' },
        body,
      });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  void Promise.all(Array.from({ length: senders }, sender)).then(() => {
    process.send?.({ statuses });
    process.disconnect();
  });
});
process.send?.({ ready: true });
