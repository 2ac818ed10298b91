import { buildCancelacionXml, signCancelacion } from '@cfdi/pac';
import net from 'node:net';
import { FAULT_KINDS, type FaultKind } from '../src/faults/fault-registry';
import { sealedInvoice } from './helpers/cfdi-fixture';
import { startSandbox, type Harness } from './helpers/harness';
import { testCsd } from './helpers/sat-files';

const csd = testCsd('EKU9003173C9-csd');
let h: Harness;
let folio = 0;

beforeAll(async () => {
  h = await startSandbox();
  await h.pac.registerCsd({ rfc: 'EKU9003173C9' });
});
afterAll(() => h.close());
afterEach(() => h.control('DELETE', '/sandbox/faults'));

const invoice = () => sealedInvoice({ fecha: h.fecha(), folio: `F-${++folio}`, csd });
const arm = (operation: string, kind: FaultKind, params: Record<string, unknown> = {}, count = 1) =>
  h.control('POST', '/sandbox/faults', { operation, kind, count, params });

interface Row {
  kind: FaultKind;
  params?: Record<string, unknown>;
  /** Faults on `stamped` armed at the same time, to keep the follow-up lookup from resolving it. */
  lookupLags?: boolean;
  expected: Record<string, unknown>;
  /** Did the sandbox keep the stamp? Checked afterwards with the already-stamped lookup. */
  stored: boolean;
}

/** Rows about the deadline use a 300 ms client timeout so they resolve quickly. */
const rows: Row[] = [
  { kind: 'latency', params: { ms: 50 }, expected: { outcome: 'stamped' }, stored: true },
  {
    kind: 'latency',
    params: { ms: 1_000 },
    expected: { outcome: 'ambiguous', reason: 'timeout_after_send' },
    stored: true,
  },
  { kind: 'hang', expected: { outcome: 'ambiguous', reason: 'timeout_after_send' }, stored: false },
  { kind: 'reset', expected: { outcome: 'ambiguous', reason: 'reset_after_send' }, stored: false },
  {
    kind: 'process_then_reset',
    expected: { outcome: 'ambiguous', reason: 'reset_after_send' },
    stored: true,
  },
  { kind: 'http_500', expected: { outcome: 'unavailable', reason: 'http_error' }, stored: false },
  {
    kind: 'http_500_after_processing',
    expected: { outcome: 'ambiguous', reason: 'soap_fault' },
    stored: true,
  },
  {
    kind: 'sat_unavailable',
    expected: { outcome: 'unavailable', reason: 'sat_unreachable', code: '708' },
    stored: false,
  },
  {
    kind: 'reject',
    params: { code: 'CFDI40145' },
    expected: { outcome: 'rejected', code: 'CFDI40145' },
    stored: false,
  },
  { kind: 'queued', expected: { outcome: 'stamped', previouslyStamped: false }, stored: true },
  { kind: 'queued', lookupLags: true, expected: { outcome: 'ambiguous', reason: 'queued' }, stored: true },
  { kind: 'duplicate_without_data', expected: { outcome: 'stamped', previouslyStamped: true }, stored: true },
  {
    kind: 'duplicate_without_data',
    lookupLags: true,
    expected: { outcome: 'ambiguous', reason: 'duplicate_without_data' },
    stored: true,
  },
];

describe('stamp faults are classified', () => {
  test('the table covers every fault kind', () => {
    expect(new Set(rows.map((r) => r.kind))).toEqual(new Set(FAULT_KINDS));
  });

  test.each(
    rows.map(
      (r) =>
        [
          `${r.kind}${r.params ? ` ${JSON.stringify(r.params)}` : ''}${r.lookupLags ? ' (lookup lags)' : ''}`,
          r,
        ] as const,
    ),
  )('%s', async (_name, row) => {
    // A short deadline only where the row is about the deadline: elsewhere a loaded machine must not flake.
    const pac = row.expected.reason === 'timeout_after_send' ? h.client({ timeoutMs: 300 }) : h.pac;
    const xml = invoice();
    await arm('stamp', row.kind, row.params);
    // The follow-up makes 2 lookups (harness followUp.attempts = 2); make both miss.
    if (row.lookupLags) await arm('stamped', 'reject', { code: '603' }, 2);
    expect(await pac.stamp(xml)).toMatchObject(row.expected);

    await h.control('DELETE', '/sandbox/faults');
    // "latency 1000" finishes its work after the client gave up: wait for it before looking.
    if (row.kind === 'latency') await new Promise((r) => setTimeout(r, (row.params?.ms as number) + 100));
    const lookup = await pac.lookupStamped(xml);
    expect(lookup.outcome).toBe(row.stored ? 'stamped' : 'not_stamped');
  });

  test('stamp-then-drop: the stamped lookup returns the original stamp, and a retry gets 307 with the same UUID', async () => {
    const xml = invoice();
    await arm('stamp', 'process_then_reset');
    expect(await h.pac.stamp(xml)).toMatchObject({ outcome: 'ambiguous' });
    const lookup = await h.pac.lookupStamped(xml);
    const retry = await h.pac.stamp(xml);
    expect(lookup.outcome).toBe('stamped');
    expect(retry).toMatchObject({ outcome: 'stamped', previouslyStamped: true });
    if (lookup.outcome === 'stamped' && retry.outcome === 'stamped') expect(retry.uuid).toBe(lookup.uuid);
  });

  test('connection refused → unavailable (nothing was sent)', async () => {
    const port = await closedPort();
    const pac = h.client({ url: `http://127.0.0.1:${port}` });
    expect(await pac.stamp(invoice())).toMatchObject({ outcome: 'unavailable', reason: 'connection_failed' });
  });

  test('unknown host → unavailable', async () => {
    const pac = h.client({ url: 'http://pac-sandbox.invalid' });
    expect(await pac.stamp(invoice())).toMatchObject({ outcome: 'unavailable', reason: 'connection_failed' });
  });
});

describe('faults on other operations', () => {
  test('cancel_signature: 708 → unavailable, hang → ambiguous, 500 before processing → unavailable', async () => {
    const stamped = await h.pac.stamp(invoice());
    if (stamped.outcome !== 'stamped') throw new Error(stamped.outcome);
    const request = signCancelacion(
      buildCancelacionXml({
        rfcEmisor: 'EKU9003173C9',
        fecha: h.fecha(0),
        folios: [{ uuid: stamped.uuid, motivo: '02' }],
      }),
      csd,
    );
    const pac = h.pac;
    await arm('cancel_signature', 'sat_unavailable');
    expect(await pac.cancel(request)).toMatchObject({
      outcome: 'unavailable',
      reason: 'sat_unreachable',
      code: '708',
    });
    await arm('cancel_signature', 'hang');
    expect(await h.client({ timeoutMs: 300 }).cancel(request)).toMatchObject({
      outcome: 'ambiguous',
      reason: 'timeout_after_send',
    });
    await arm('cancel_signature', 'http_500');
    expect(await pac.cancel(request)).toMatchObject({ outcome: 'unavailable', reason: 'http_error' });
    await arm('cancel_signature', 'reject', { code: '311', message: 'Motivo inválido' });
    expect(await pac.cancel(request)).toMatchObject({ outcome: 'rejected', code: '311' });
  });

  test('reads never report ambiguity: a hung get_sat_status is unavailable', async () => {
    await arm('get_sat_status', 'hang');
    const pac = h.client({ timeoutMs: 300 });
    const status = await pac.satStatus({
      emisorRfc: 'EKU9003173C9',
      receptorRfc: 'URE180429TM6',
      total: '1',
      uuid: '00000000-0000-4000-8000-000000000000',
    });
    expect(status).toMatchObject({ outcome: 'unavailable', reason: 'timeout' });
  });
});

describe('fault control API', () => {
  test('arm with a count, list, consume, clear', async () => {
    const created = await arm('stamp', 'sat_unavailable', {}, 2);
    expect(created.status).toBe(201);
    expect((await h.control<{ faults: unknown[] }>('GET', '/sandbox/faults')).body.faults).toHaveLength(1);
    await h.pac.stamp(invoice());
    expect(
      (await h.control<{ faults: Array<{ remaining: number }> }>('GET', '/sandbox/faults')).body.faults[0]
        ?.remaining,
    ).toBe(1);
    await h.pac.stamp(invoice());
    expect((await h.control<{ faults: unknown[] }>('GET', '/sandbox/faults')).body.faults).toHaveLength(0);
    expect((await h.pac.stamp(invoice())).outcome).toBe('stamped');
    await arm('stamp', 'hang');
    expect((await h.control('DELETE', '/sandbox/faults')).status).toBe(204);
    expect((await h.control<{ faults: unknown[] }>('GET', '/sandbox/faults')).body.faults).toHaveLength(0);
  });

  test('rejects unknown operations and kinds', async () => {
    expect((await h.control('POST', '/sandbox/faults', { operation: 'stamp', kind: 'explode' })).status).toBe(
      400,
    );
    expect((await h.control('POST', '/sandbox/faults', { operation: 'print', kind: 'hang' })).status).toBe(
      400,
    );
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}
