// The self-invoicing portal's HTTP server (packages/next-app/server.js): Next.js behind a plain Node server that
// records the TCP peer's address, so the rate limits count the real client (src/client-ip.ts, with TRUSTED_PROXIES).
//
//   node server.js [--dev] [-p PORT] [-H HOST]     (PORT defaults to PORTAL_PORT or 3002; HOST to every interface)
require('@cfdi/next-app/server.js').main({
  name: 'portal',
  dir: __dirname,
  portVariable: 'PORTAL_PORT',
  defaultPort: 3002,
});
