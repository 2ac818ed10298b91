import net from 'node:net';

/**
 * A TCP proxy in front of PostgreSQL that counts the statements its clients send: simple-protocol queries ('Q') and
 * extended-protocol executions ('E'), BEGIN and COMMIT included. One proxy per role (API, worker, …) tells whose
 * statements they are; the shared server has no pg_stat_statements loaded, and its log is everyone's.
 */
export async function startSqlCounter(
  target: { host: string; port: number },
  /** Called with the text of each statement parsed or sent (BENCH_SQL_LOG lists a stamp's statements). */
  onText?: (sql: string) => void,
): Promise<{ port: number; statements(): number; close(): void }> {
  let statements = 0;
  // No Nagle on either side: the client's and the server's small messages would otherwise wait for delayed ACKs
  // (40 ms on Linux), which the bench would then report as the platform's latency.
  const server = net.createServer({ noDelay: true }, (client) => {
    const upstream = net.connect({ port: target.port, host: target.host, noDelay: true });
    let buffered = Buffer.alloc(0);
    let started = false; // the first messages (SSLRequest, StartupMessage) carry no type byte
    client.on('data', (chunk) => {
      upstream.write(chunk);
      buffered = Buffer.concat([buffered, chunk]);
      for (;;) {
        if (!started) {
          if (buffered.length < 8) break;
          const length = buffered.readInt32BE(0);
          if (buffered.length < length) break;
          const code = buffered.readInt32BE(4);
          started = code !== 80877103 && code !== 80877104; // SSLRequest and GSSENCRequest are followed by a startup
          buffered = buffered.subarray(length);
          continue;
        }
        if (buffered.length < 5) break;
        const length = buffered.readInt32BE(1) + 1;
        if (buffered.length < length) break;
        const type = buffered[0];
        if (type === 0x51 || type === 0x45) statements++;
        // Query: the text; Parse: the statement name, then the text (both NUL-terminated).
        if (onText && type === 0x51) onText(buffered.toString('utf8', 5, length - 1));
        if (onText && type === 0x50) {
          const textStart = buffered.indexOf(0, 5) + 1;
          onText(buffered.toString('utf8', textStart, buffered.indexOf(0, textStart)));
        }
        buffered = buffered.subarray(length);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    statements: () => statements,
    close: () => server.close(),
  };
}
