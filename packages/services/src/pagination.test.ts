import { createOrm, ensureDatabase, migrate, newId, type EntityManager, type Orm } from '@cfdi/db';
import { ValidationError } from './errors';
import {
  Conditions,
  COUNT_CAP,
  countedPage,
  countRows,
  keysetCount,
  keysetPage,
  listAnswer,
  type KeysetList,
} from './pagination';

// Against the real database: the SQL the helper writes is what is under test.
const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/cfdi_test';

let orm: Orm;
let em: EntityManager;
beforeAll(async () => {
  await ensureDatabase(databaseUrl);
  orm = await createOrm(databaseUrl);
  await migrate(orm);
  em = orm.em.fork();
});
afterAll(() => orm?.close());

const t0 = Date.parse('2026-11-28T12:00:00Z');

/** `count` events of one account and mode, one millisecond apart; their ids, oldest first. */
async function insertEvents(
  scope: { accountId: string; livemode: boolean },
  count: number,
  type = 'test.event',
) {
  const ids = Array.from({ length: count }, (_, n) => newId('evt', t0 + n));
  for (const id of ids)
    await em.execute('insert into events (id, account_id, livemode, type, data) values (?, ?, ?, ?, ?)', [
      id,
      scope.accountId,
      scope.livemode,
      type,
      JSON.stringify({}),
    ]);
  return ids;
}

const eventsOf = (scope: { accountId: string; livemode: boolean }, extra: Partial<KeysetList> = {}) => ({
  select: 'select id from events',
  table: 'events',
  scope,
  noun: 'event',
  ...extra,
});

const ids = (page: { rows: { id: string }[] }) => page.rows.map((row) => row.id);

async function rejection(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('keysetPage', () => {
  it('answers exactly `limit` rows without a next page, newest first', async () => {
    const scope = { accountId: newId('acct'), livemode: false };
    const inserted = await insertEvents(scope, 3);
    const page = await keysetPage<{ id: string }>(em, eventsOf(scope), { limit: 3 });
    expect(ids(page)).toEqual([...inserted].reverse());
    expect(page.hasMore).toBe(false);
  });

  it('says has_more at `limit` + 1 rows, and the next page starts after the last id', async () => {
    const scope = { accountId: newId('acct'), livemode: false };
    const inserted = (await insertEvents(scope, 4)).reverse();
    const first = await keysetPage<{ id: string }>(em, eventsOf(scope), { limit: 3 });
    expect(ids(first)).toEqual(inserted.slice(0, 3));
    expect(first.hasMore).toBe(true);
    const next = await keysetPage<{ id: string }>(em, eventsOf(scope), {
      limit: 3,
      startingAfter: inserted[2],
    });
    expect(ids(next)).toEqual([inserted[3]]);
    expect(next.hasMore).toBe(false);
  });

  it('lists only the caller’s account and mode, with the extra conditions', async () => {
    const scope = { accountId: newId('acct'), livemode: true };
    const mine = await insertEvents(scope, 2, 'kept.event');
    await insertEvents(scope, 2, 'other.event');
    await insertEvents({ ...scope, livemode: false }, 2, 'kept.event');
    await insertEvents({ accountId: newId('acct'), livemode: true }, 2, 'kept.event');
    const where = new Conditions().add('type = ?', 'kept.event');
    const page = await keysetPage<{ id: string }>(em, eventsOf(scope, { where }), { limit: 10 });
    expect(ids(page)).toEqual([...mine].reverse());
  });

  it('refuses a starting_after of another account or mode with a 400 on /starting_after', async () => {
    const scope = { accountId: newId('acct'), livemode: false };
    await insertEvents(scope, 2);
    const [foreign] = await insertEvents({ accountId: newId('acct'), livemode: false }, 1);
    const [otherMode] = await insertEvents({ ...scope, livemode: true }, 1);
    for (const cursor of [foreign, otherMode, 'evt_unknown']) {
      const error = await rejection(keysetPage(em, eventsOf(scope), { limit: 10, startingAfter: cursor }));
      expect(error.status).toBe(400);
      expect(error.extra.errors).toEqual([
        { path: '/starting_after', message: `No event "${cursor}" to start after.` },
      ]);
    }
  });

  it('refuses a cursor that lacks a `cursorAlso` value (another document type)', async () => {
    const scope = { accountId: newId('acct'), livemode: false };
    const [other] = await insertEvents(scope, 1, 'other.event');
    const [kept] = await insertEvents(scope, 1, 'kept.event');
    const list = eventsOf(scope, { cursorAlso: { type: 'kept.event' } });
    await rejection(keysetPage(em, list, { limit: 10, startingAfter: other }));
    await expect(keysetPage(em, list, { limit: 10, startingAfter: kept })).resolves.toBeDefined();
  });

  it('sorts on a sequence when the table has one, the cursor still named by id', async () => {
    const accountId = newId('acct');
    await em.execute('insert into accounts (id, name) values (?, ?)', [accountId, 'pagination test']);
    // Ids in the opposite order to the sequence: the page must follow the sequence.
    const inserted = [t0 + 2, t0 + 1, t0].map((time) => newId('txn', time));
    let balance = 0;
    for (const id of inserted)
      await em.execute(
        `insert into transactions (id, account_id, livemode, type, delta_centavos, balance_after_centavos)
         values (?, ?, false, 'adjustment', 100, ?)`,
        [id, accountId, (balance += 100)],
      );
    const list = {
      select: 'select id from transactions',
      table: 'transactions',
      key: 'seq' as const,
      scope: { accountId, livemode: false },
      noun: 'transaction',
    };
    const first = await keysetPage<{ id: string }>(em, list, { limit: 2 });
    expect(ids(first)).toEqual([inserted[2], inserted[1]]);
    expect(first.hasMore).toBe(true);
    const next = await keysetPage<{ id: string }>(em, list, { limit: 2, startingAfter: inserted[1] });
    expect(ids(next)).toEqual([inserted[0]]);
  });
});

describe('numbered pages and counts (the console)', () => {
  it('pages by offset and counts the list, the same conditions as the page', async () => {
    const scope = { accountId: newId('acct'), livemode: false };
    const inserted = (await insertEvents(scope, 7)).reverse();
    const second = await keysetPage<{ id: string }>(em, eventsOf(scope), { limit: 3, offset: 3 });
    expect(ids(second)).toEqual(inserted.slice(3, 6));
    expect(second.hasMore).toBe(true);
    await expect(keysetCount(em, eventsOf(scope))).resolves.toEqual({ total: 7, capped: false });
    const sql = 'select id from events where account_id = ? order by id desc';
    const third = await countedPage<{ id: string }>(em, sql, [scope.accountId], { limit: 3, offset: 6 });
    expect(third).toEqual({ rows: [{ id: inserted[6] }], total: 7, capped: false });
  });

  it('stops counting at COUNT_CAP and says so', async () => {
    const count = (n: number) => countRows(em, 'select n from generate_series(1, ?) n', [n]);
    await expect(count(COUNT_CAP)).resolves.toEqual({ total: COUNT_CAP, capped: false });
    await expect(count(COUNT_CAP + 500)).resolves.toEqual({ total: COUNT_CAP, capped: true });
  });
});

describe('listAnswer', () => {
  it('is the API list shape, each row through the view (and only the row)', () => {
    const view = (row: { n: number }, second?: unknown) => ({ n: row.n * 10, second });
    expect(listAnswer({ rows: [{ n: 1 }, { n: 2 }], hasMore: true }, view)).toEqual({
      object: 'list',
      data: [
        { n: 10, second: undefined },
        { n: 20, second: undefined },
      ],
      has_more: true,
    });
  });
});
