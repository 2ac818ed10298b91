import net from 'node:net';

/**
 * A TCP relay in front of Mailpit's SMTP port for tests: passes every connection through unchanged, or, once told
 * `failWith('451 …')`, answers the SMTP dialogue itself and refuses each message with that reply (at MAIL FROM), as
 * a busy or refusing server would. Counts the connections, so a test sees the attempts.
 */
export async function startSmtpGate(upstreamPort: number) {
  let failure: string | null = null;
  let connections = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    connections++;
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (!failure) {
      const upstream = net.connect(upstreamPort, '127.0.0.1');
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      client.pipe(upstream).pipe(client);
      return;
    }
    const refusal = failure;
    client.write('220 gate ESMTP\r\n');
    let buffered = '';
    client.on('data', (chunk) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const command = buffered.slice(0, end).toUpperCase();
        buffered = buffered.slice(end + 2);
        if (command.startsWith('EHLO') || command.startsWith('HELO')) client.write('250 gate\r\n');
        else if (command.startsWith('QUIT')) client.end('221 bye\r\n');
        else if (command.startsWith('RSET') || command.startsWith('NOOP')) client.write('250 OK\r\n');
        else client.write(`${refusal}\r\n`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    /** Refuse every message with this SMTP reply from now on; null: relay to Mailpit again. */
    failWith(reply: string | null) {
      failure = reply;
    },
    connections: () => connections,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
