// The self-invoicing portal's HTTP server, as the console's (apps/console/server.js): Next.js behind a plain Node
// server, so every request carries the TCP peer in PEER_HEADER (overwriting whatever the client sent under that
// name) and the rate limits count the real client (src/client-ip.ts, with TRUSTED_PROXIES).
//
//   node server.js [--dev] [-p PORT] [-H HOST]     (PORT defaults to PORTAL_PORT or 3002; HOST to every interface)
const http = require('node:http');

const PEER_HEADER = 'x-cfdi-peer-address';

/** The request handler with the peer's address recorded (exported for its test). */
function withPeerAddress(handle) {
  return (request, response) => {
    request.headers[PEER_HEADER] = request.socket.remoteAddress ?? '';
    return handle(request, response);
  };
}

function option(args, flag) {
  const at = args.indexOf(flag);
  return at >= 0 ? args[at + 1] : undefined;
}

async function main(args) {
  const dev = args.includes('--dev');
  const port = Number(option(args, '-p') ?? process.env.PORTAL_PORT ?? 3002);
  const hostname = option(args, '-H');
  const server = http.createServer();
  const next = require('next')({ dev, dir: __dirname, hostname, port, httpServer: server });
  await next.prepare();
  server.on('request', withPeerAddress(next.getRequestHandler()));
  server.listen(port, hostname, () =>
    console.log(`portal ${dev ? '(dev) ' : ''}on http://${hostname ?? 'localhost'}:${port}`),
  );
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { PEER_HEADER, withPeerAddress };
