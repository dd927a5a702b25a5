import { Gauge } from 'prom-client';
import { createMetrics, type ServiceMetrics } from '@platform/http-server';
import type { Logger } from '@platform/logging';

export interface QueueDepth {
  queued: number;
  running: number;
}

/**
 * The Agent Server's `/metrics`: the HTTP metrics of every service, plus the deployment's run queue read at each
 * scrape — `agent_server_runs_queued` (waiting and due) and `agent_server_runs_running` — labelled with the
 * deployment id. Every replica reads the same shared queue, so a query takes their `max`, not their sum; KEDA's
 * Prometheus scaler sizes the deployment by queued + running runs (k8s driver, K8S_AUTOSCALER=keda).
 */
export function createAgentServerMetrics(options: { deploymentId?: string; depth: () => Promise<QueueDepth>; logger: Logger }): ServiceMetrics {
  const metrics = createMetrics('agent-server');
  if (options.deploymentId) metrics.registry.setDefaultLabels({ service: 'agent-server', deployment_id: options.deploymentId });
  // One query serves both gauges of a scrape.
  let reading: Promise<QueueDepth | undefined> | undefined;
  const read = () =>
    (reading ??= options
      .depth()
      .catch((err: unknown) => {
        // A scrape still answers (the gauges keep their last values); the database's readiness check tells the rest.
        options.logger.warn({ err }, 'metrics: could not read the run queue depth');
        return undefined;
      })
      .finally(() => (reading = undefined)));
  const gauge = (name: string, help: string, pick: (depth: QueueDepth) => number) =>
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      async collect() {
        const depth = await read();
        if (depth) this.set(pick(depth));
      },
    });
  gauge('agent_server_runs_queued', "Runs waiting to start and due, in the deployment's queue (all replicas)", (d) => d.queued);
  gauge('agent_server_runs_running', 'Runs being executed, by any replica of the deployment', (d) => d.running);
  return metrics;
}
