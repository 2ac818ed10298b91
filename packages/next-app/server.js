// The console's and the portal's HTTP server: Next.js behind a plain Node server, so the pages know the TCP peer's
// address. `next start` only fills X-Forwarded-For when the request has none, and a client may send one: the peer is
// then lost. Here every request carries the peer in PEER_HEADER, overwriting whatever the client sent under that
// name; each app derives the client's address from it and TRUSTED_PROXIES.
const http = require('node:http');

const PEER_HEADER = 'x-cfdi-peer-address';

/** The request handler with the peer's address recorded. */
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

/**
 * Serves the Next app in `dir`: `[--dev] [-p PORT] [-H HOST]` (PORT defaults to `process.env[portVariable]` or
 * `defaultPort`; HOST to every interface).
 */
async function serveNextApp({ name, dir, portVariable, defaultPort }, args) {
  const dev = args.includes('--dev');
  const port = Number(option(args, '-p') ?? process.env[portVariable] ?? defaultPort);
  const hostname = option(args, '-H');
  const server = http.createServer();
  const next = require('next')({ dev, dir, hostname, port, httpServer: server });
  await next.prepare();
  server.on('request', withPeerAddress(next.getRequestHandler()));
  server.listen(port, hostname, () =>
    console.log(`${name} ${dev ? '(dev) ' : ''}on http://${hostname ?? 'localhost'}:${port}`),
  );
}

/** Runs `serveNextApp` as a command, exiting on a start-up failure. */
function main(app) {
  serveNextApp(app, process.argv.slice(2)).catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

module.exports = { PEER_HEADER, main };
