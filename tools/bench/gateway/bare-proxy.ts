// The floors of proxying in Node, which the gateway benchmark runs beside the gateway so that the gateway's CPU per
// request can be read against them on the same two HTTP hops:
// - `bare` (`--bare-proxy`): a bare keep-alive `node:http` proxy (no framework, no auth, no logging) that forwards
//   everything to one upstream: what any Node proxy spends.
// - `library` (`--library-floor`): the gateway's own libraries and nothing of ours: an express app whose one
//   middleware is http-proxy-middleware (the design card's proxy) with the gateway's proxy options (keep-alive agent,
//   `changeOrigin`, `xfwd`, the two plugins it keeps), served as our services serve express (requests born with its
//   prototypes: startHttpServer). No authentication, signing, access line, metrics or request id: what the gateway
//   costs above this is its own code.
//   node_modules/.bin/tsx tools/bench/gateway/bare-proxy.ts <port> <upstream base URL> [bare|library]
import http from 'node:http';
import express from 'express';
import { createProxyMiddleware, debugProxyErrorsPlugin, proxyEventsPlugin } from 'http-proxy-middleware';
import { startHttpServer } from '@platform/http-server';

const [port, upstream, kind = 'bare'] = [Number(process.argv[2]), new URL(process.argv[3]), process.argv[4]];
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

function bare(): http.RequestListener {
  return (req, res) => {
    const headers = { ...req.headers, host: upstream.host };
    delete headers.connection;
    const out = http.request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  };
}

function library(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(
    createProxyMiddleware({
      target: upstream.origin,
      changeOrigin: true,
      xfwd: true,
      agent,
      ejectPlugins: true,
      plugins: [debugProxyErrorsPlugin, proxyEventsPlugin],
    }),
  );
  return app;
}

if (kind !== 'bare' && kind !== 'library') throw new Error(`unknown proxy kind ${kind} (bare | library)`);
// startHttpServer, as the services listen: an express app's requests are born with its prototypes.
void startHttpServer(kind === 'bare' ? bare() : library(), '127.0.0.1', port).then(() => process.stdout.write('listening\n'));
