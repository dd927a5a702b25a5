// A service run by runService that does nothing but wait; process-tree.spec.ts starts it under a parent it then kills.
import { runService } from '../run-service';

void runService({
  name: 'watched-service',
  loadConfig: () => ({}),
  logLevel: () => 'warn',
  start: async () => {
    const timer = setInterval(() => undefined, 1_000);
    process.stdout.write('watched-service started\n');
    return {
      name: 'watched-service',
      url: 'http://127.0.0.1:0',
      stop: async () => {
        clearInterval(timer);
        process.stdout.write('watched-service stopped\n');
      },
    };
  },
});
