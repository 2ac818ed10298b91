import { createOrm, type Orm } from './orm';

// Strings whose literal is easy to get wrong: quotes, backslashes (E'' literals), both, placeholders, non-ASCII.
const samples = [
  '',
  'plain',
  "O'Brien",
  "''",
  '\\',
  'C:\\temp\\new',
  "it\\'s",
  "\\'; drop table documents; --",
  '?',
  '??',
  '$1',
  'línea\ncon\tespacios\r\n',
  'Año ñ € 😀',
  '<cfdi:Comprobante Sello="a+b/c=="/>',
  "E'\\x41'",
];

describe('the ORM sends string parameters intact', () => {
  let orm: Orm;
  beforeAll(async () => {
    orm = await createOrm(process.env.DATABASE_URL!);
  });
  afterAll(() => orm.close());

  it('round-trips every sample, a large document and JSON through PostgreSQL', async () => {
    const large = `<cfdi:Concepto Descripcion="D'Angelo \\ 50%"/>`.repeat(10_000);
    const em = orm.em.fork();
    for (const value of [...samples, large]) {
      const [row] = await em.execute<Array<{ value: string }>>('select ?::text as value', [value]);
      expect(row!.value).toBe(value);
    }
    const json = { note: "it's \\ fine", items: [1, 'two'] };
    const [row] = await em.execute<Array<{ value: unknown }>>('select ?::jsonb as value', [json]);
    expect(row!.value).toEqual(json);
  });

  it('binds parameters through the driver instead of writing them into the statement', async () => {
    const em = orm.em.fork();
    // The server sees the statement's text with a placeholder, and the value apart.
    const [own] = await em.execute<Array<{ query: string }>>(
      'select query from pg_stat_activity where pid = pg_backend_pid() and ?::text is not null',
      ['marker-value'],
    );
    expect(own!.query).toContain('$1');
    expect(own!.query).not.toContain('marker-value');
    // An array is one parameter: a PostgreSQL array.
    const [matched] = await em.execute<Array<{ n: number }>>(
      'select count(*)::int as n from unnest(array[1, 2, 3]) v where v = any(?)',
      [[1, 3]],
    );
    expect(matched!.n).toBe(2);
    // Inside a transaction too.
    await em.transactional(async (tx) => {
      const [row] = await tx.execute<Array<{ value: string }>>('select ?::text as value', ["it's"]);
      expect(row!.value).toBe("it's");
    });
  });
});
