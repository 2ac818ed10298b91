// The console's HTTP server (packages/next-app/server.js): Next.js behind a plain Node server that records the TCP
// peer's address for src/session.ts.
//
//   node server.js [--dev] [-p PORT] [-H HOST]     (PORT defaults to CONSOLE_PORT or 3001; HOST to every interface)
require('@cfdi/next-app/server.js').main({
  name: 'console',
  dir: __dirname,
  portVariable: 'CONSOLE_PORT',
  defaultPort: 3001,
});
