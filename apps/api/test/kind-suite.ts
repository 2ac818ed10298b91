import { getBalanceCentavos } from '@cfdi/services';
import { ensureWebhookDispatchSchedule, webhookDispatchScheduleId } from '@cfdi/temporal-contract/client';
import { idempotencyKey, startStack, type StackHarness } from './stack';
import { startReceiver, type Receiver } from './webhook-receiver';

/**
 * The set-up a document kind's end-to-end suite shares (retentions, traslados): the stack with `env`, the webhook
 * dispatch schedule and a receiving endpoint, sandbox faults cleared after each test, and the requests and reads
 * its tests make on `resourcePath` (`/v1/retentions`). `started` hands the test file its stack and receiver.
 */
export function documentKindSuite(
  resourcePath: string,
  env: Record<string, string>,
  started: (stack: StackHarness, receiver: Receiver) => void,
) {
  let stack: StackHarness;
  let receiver: Receiver;
  beforeAll(async () => {
    stack = await startStack(env);
    await ensureWebhookDispatchSchedule(stack.api.deps.temporal, stack.taskQueue, {
      runForMs: 60_000,
      intervalMs: 200,
      eventRetentionDays: 30,
    });
    receiver = await startReceiver();
    started(stack, receiver);
  }, 120_000);
  afterAll(async () => {
    await stack?.api.deps.temporal.schedule
      .getHandle(webhookDispatchScheduleId(stack.taskQueue))
      .delete()
      .catch(() => undefined);
    await receiver?.close();
    await stack?.close();
  }, 60_000);
  afterEach(async () => {
    await fetch(`${stack.sandbox.url}/sandbox/faults`, { method: 'DELETE' });
  });

  return {
    post: (key: string, body: unknown, ik = idempotencyKey()) =>
      stack.api.request('POST', resourcePath, { key, body, headers: { 'idempotency-key': ik } }),
    get: (key: string, url: string) => stack.api.request('GET', url, { key }),
    cancel: (key: string, id: string, body: unknown = { motivo: '02' }) =>
      stack.api.request('POST', `${resourcePath}/${id}/cancel`, {
        key,
        body,
        headers: { 'idempotency-key': idempotencyKey() },
      }),
    balance: (accountId: string) =>
      getBalanceCentavos(stack.api.orm.em.fork(), { accountId, livemode: false }),
    eventTypes: async (accountId: string) =>
      (
        (await stack.api.orm.em
          .fork()
          .execute('select type from events where account_id = ? order by id', [accountId])) as {
          type: string;
        }[]
      ).map((e) => e.type),
    ledger: async (accountId: string) =>
      (await stack.api.orm.em
        .fork()
        .execute(
          'select type, delta_centavos, reference_type, reference_id from transactions where account_id = ? and livemode = false and type <> ? order by seq',
          [accountId, 'seed'],
        )) as { type: string; delta_centavos: string; reference_type: string; reference_id: string }[],
    /** The stored document row, typed by the suite as it reads it. */
    row: async <Row>(id: string) =>
      (await stack.api.orm.em.fork().execute('select * from documents where id = ?', [id]))[0] as Row,
    async injectFault(operation: string, kind: string, params: Record<string, unknown> = {}) {
      const res = await fetch(`${stack.sandbox.url}/sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ operation, kind, count: 1, params }),
      });
      expect(res.status).toBeLessThan(300);
    },
    download: (url: string) => fetch(stack.api.url + new URL(url).pathname + new URL(url).search),
  };
}
