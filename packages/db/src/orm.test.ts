import { Client } from 'pg';
import { createOrm, escapeLiteral, type Orm } from './orm';

// Strings whose literal is easy to get wrong: quotes, backslashes (E'' literals), both, placeholders, non-ASCII.
const samples = [
  '', 'plain', "O'Brien", "''", '\\', 'C:\\temp\\new', "it\\'s", "\\'; drop table documents; --", '?', '??', '$1',
  'línea\ncon\tespacios\r\n', 'Año ñ € 😀', '<cfdi:Comprobante Sello="a+b/c=="/>', "E'\\x41'",
];

describe('escapeLiteral', () => {
  it('writes the literal pg writes, for every sample and for random strings', () => {
    const pgEscape = (value: string): string => Client.prototype.escapeLiteral(value);
    const alphabet = ["'", '\\', 'a', 'ñ', ' ', '\n', '"', '?'];
    const random = Array.from({ length: 500 }, (_, n) =>
      Array.from({ length: n % 40 }, (_, k) => alphabet[(n * 7 + k * 13 + (n * k) % 5) % alphabet.length]).join(''));
    for (const value of [...samples, ...random]) expect(escapeLiteral(value)).toBe(pgEscape(value));
  });
});

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
});
