// The floor of proxying in Node: a bare keep-alive `node:http` proxy (no framework, no auth, no logging) that
// forwards everything to one upstream. The gateway benchmark runs it beside the gateway (`--bare-proxy`), so the
// gateway's CPU per request can be read against what any Node proxy spends on the same two HTTP hops.
//   node_modules/.bin/tsx tools/bench/gateway/bare-proxy.ts <port> <upstream base URL>
import http from 'node:http';

const [port, upstream] = [Number(process.argv[2]), new URL(process.argv[3])];
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

http
  .createServer((req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    delete headers.connection;
    const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  })
  .listen(port, '127.0.0.1', () => process.stdout.write('listening\n'));
