import { FinkokPac, type FinkokPacOptions } from '@cfdi/pac';
import type { FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import { buildSandboxApp, type SandboxOptions } from '../../src/app';
import { dropDatabase } from '../../src/storage/database';
import { mexicoLocal } from '../../src/time/mexico-time';

/** Tests run on 2026-11-21 12:00 Mexico City: inside the 2023–2027 validity of the SAT test CSDs. */
export const PINNED_NOW = new Date('2026-11-21T18:00:00Z');

export interface Harness {
  app: FastifyInstance;
  url: string;
  databaseUrl: string;
  pac: FinkokPac;
  clock: { now: Date };
  /** A Fecha `minutesAgo` before the sandbox clock, in Mexico City time. */
  fecha(minutesAgo?: number): string;
  client(options?: Partial<FinkokPacOptions>): FinkokPac;
  control<T = unknown>(
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }>;
  close(): Promise<void>;
}

const BASE_DB = process.env.PAC_SANDBOX_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** A sandbox on an ephemeral port with its own fresh database and a movable clock. */
export async function startSandbox(options: Partial<SandboxOptions> = {}): Promise<Harness> {
  const url = new URL(BASE_DB);
  url.pathname = `/pac_sandbox_test_${randomBytes(6).toString('hex')}`;
  const databaseUrl = url.toString();
  const clock = { now: PINNED_NOW };
  const app = await buildSandboxApp({ databaseUrl, now: () => clock.now, ...options });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP address');
  const base = `http://127.0.0.1:${address.port}`;
  const clients: FinkokPac[] = [];
  const client = (o: Partial<FinkokPacOptions> = {}) => {
    const pac = new FinkokPac({
      url: base,
      username: 'sandbox',
      password: 'sandbox',
      timeoutMs: 5_000,
      followUp: { attempts: 2, delayMs: 20 },
      ...o,
    });
    clients.push(pac);
    return pac;
  };
  return {
    app,
    url: base,
    databaseUrl,
    pac: client(),
    clock,
    fecha: (minutesAgo = 5) => mexicoLocal(new Date(clock.now.getTime() - minutesAgo * 60_000)),
    client,
    async control(method, path, body) {
      const res = await fetch(`${base}${path}`, {
        method,
        ...(body === undefined
          ? {}
          : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    },
    async close() {
      for (const c of clients) c.close();
      await app.close();
      await dropDatabase(databaseUrl);
    },
  };
}
