// Set-based seeding for bench/scale: one account with N documents over the last 12 months (invoices, credit notes,
// global invoices, payments, payroll; stamped, cancelled, failed, a few in flight), one ledger consume per document,
// refunds for failures, top-ups and rare recharges, plus two other accounts with N/10 documents each. Ids are
// shaped like newId's (prefix, 10 base32 characters of the creation time in ms, 16 random ones), so id order is
// creation order exactly as in production and the id-range plans hold.
import fs from 'node:fs/promises';
import path from 'node:path';
import type { EntityManager } from '@cfdi/db';

/** newId's time part in SQL: 10 Crockford base32 characters of epoch ms. */
const B32_FUNCTION = `
  create or replace function pg_temp.b32_time(ms bigint) returns text language sql immutable as $$
    select string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', ((ms >> (5 * (9 - i))) & 31)::int + 1, 1), '' order by i)
      from generate_series(0, 9) i
  $$;
  create or replace function pg_temp.b32_random() returns text language sql volatile as $$
    select string_agg(substr('0123456789ABCDEFGHJKMNPQRSTVWXYZ', (random() * 31)::int + 1, 1), '')
      from generate_series(1, 16)
  $$;`;

const NAMES = [
  'COMERCIALIZADORA',
  'SERVICIOS',
  'DISTRIBUIDORA',
  'CONSTRUCTORA',
  'GRUPO',
  'ABARROTES',
  'TRANSPORTES',
];

/** What the stamp path stores with a stamped document: its XML (`placeholder`, the template's UUID, becomes its own). */
export interface StampedXmlTemplate {
  xml: string;
  placeholder: string;
}

/**
 * Seeds `documents` documents (and their ledger) into `accountId`'s test mode, all through a few statements, created
 * over the last `days` days. With `stamped`, each stamped or cancelled document holds a stamped XML (the template
 * with its own UUID) and its files' keys, as the stamp path records them (files produced on demand).
 */
export async function seedAccount(
  em: EntityManager,
  accountId: string,
  merchantId: string,
  documents: number,
  options: { days?: number; inFlight?: number; stamped?: StampedXmlTemplate; ledgerEntries?: number } = {},
): Promise<void> {
  const { days = 365, inFlight = 5 } = options;
  // Entries beyond one per document (the targets' 2 per document): small adjustments spread over the same days.
  const adjustments = Math.max(0, (options.ledgerEntries ?? 0) - documents);
  await em.execute(B32_FUNCTION);
  // n → type: 1 in 8 a payment, 1 in 12 payroll, else an invoice (1 in 15 of them a credit note, 1 in 30 global).
  // Status: 1 in 25 cancelled, 1 in 70 failed, the `inFlight` newest still stamping (in flight: an older reservation
  // without an outcome is what the ledger audit reports as stale), the rest stamped; never cancel_pending.
  await em.execute(
    `insert into documents (id, account_id, livemode, merchant_id, type, kind, status, serie, folio, metodo_pago, forma_pago,
                            uso_cfdi, subtotal, total, saldo_pendiente, receiver, related_uuid, related_invoice_id, invoice_id,
                            num_parcialidad, monto, fecha_pago, input, fecha, uuid, stamped_at, reservation_state, files_status,
                            cancellation, stamped_xml, files, created_at, updated_at)
     select d.id, ?, false, ?, d.type,
            case when d.type <> 'invoice' then null when n % 15 = 0 then 'credit_note' when n % 30 = 1 then 'global' else 'nominal' end,
            d.status, d.serie, n, case when d.type = 'invoice' then (case when n % 3 = 0 then 'PPD' else 'PUE' end) end,
            case when d.type = 'invoice' then '03' end, case when d.type = 'invoice' then 'G03' end,
            1000 + n % 5000, (1000 + n % 5000) * 1.16, case when d.type = 'invoice' and n % 3 = 0 then (1000 + n % 5000) * 1.16 end,
            jsonb_build_object('rfc', case when d.type = 'nomina' then 'XEXX' else 'X' || chr(65 + n % 26) || 'X' end
                                      || lpad((n % 20011)::text, 6, '0') || 'A' || chr(65 + n % 13) || (n % 10),
                               'name', (array[${NAMES.map((name) => `'${name}'`).join(',')}])[1 + n % ${NAMES.length}]
                                       || ' ' || (n % 20011) || ' SA DE CV',
                               'zip', '86991', 'regimenFiscal', '601', 'usoCfdi', 'G03'),
            null, null, null,
            case when d.type = 'payment' then 1 end, case when d.type = 'payment' then 500 end,
            case when d.type in ('payment', 'nomina') then to_char(d.t, 'YYYY-MM-DD') end,
            '{"conceptos":[{"claveProdServ":"01010101","cantidad":1,"valorUnitario":1000}]}'::jsonb, to_char(d.t, 'YYYY-MM-DD"T"HH24:MI:SS'),
            d.uuid, case when d.uuid is not null then d.t end,
            case when d.status = 'stamp_failed' then 'refunded' when d.status = 'stamping' then 'reserved' else 'confirmed' end,
            case when d.status in ('stamped', 'cancelled') then 'ready' else 'pending' end,
            case when d.status = 'cancelled' then '{"status":"accepted","motivo":"02"}'::jsonb end,
            case when d.uuid is not null then replace(?::text, ?::text, d.uuid) end,
            case when d.uuid is not null and ?::text is not null then
              (select jsonb_object_agg(ext, ? || '/test/documents/' || d.id || '/' || d.uuid || '.' || ext)
                 from unnest(array['xml', 'pdf', 'zip']) ext) end,
            d.t, d.t
       from generate_series(1, ?) n
       cross join lateral (
         select now() - (? - n) * (? * interval '1 day' / ?) as t,
                case when n % 8 = 0 then 'payment' when n % 12 = 0 then 'nomina' else 'invoice' end as type,
                case when n > ?::int - ?::int then 'stamping' when n % 70 = 0 then 'stamp_failed' when n % 25 = 0 then 'cancelled' else 'stamped' end as status,
                case when n % 8 = 0 then 'P' when n % 12 = 0 then 'N' else 'A' end as serie
       ) d0
       cross join lateral (
         select d0.*, case d0.type when 'payment' then 'pay' when 'nomina' then 'nom' else 'inv' end
                      || '_' || pg_temp.b32_time((extract(epoch from d0.t) * 1000)::bigint) || pg_temp.b32_random() as id,
                case when d0.status in ('stamped', 'cancelled') then upper(md5(? || n::text)::uuid::text) end as uuid
       ) d`,
    [
      accountId,
      merchantId,
      options.stamped?.xml ?? null,
      options.stamped?.placeholder ?? null,
      options.stamped?.xml ?? null,
      accountId,
      documents,
      documents,
      days,
      documents,
      documents,
      inFlight,
      accountId,
    ],
  );
  // Payments point at the invoice before them, credit notes at the one before them (as the API records them).
  await em.execute(
    `update documents d set invoice_id = case when d.type = 'payment' then p.id end,
                             related_invoice_id = case when d.kind = 'credit_note' then p.id end,
                             related_uuid = case when d.kind = 'credit_note' then p.uuid end,
                             tipo_relacion = case when d.kind = 'credit_note' then '01' end
       from documents p
      where d.account_id = ? and (d.type = 'payment' or d.kind = 'credit_note')
        and p.merchant_id = d.merchant_id and p.serie = 'A' and p.folio = d.folio - 1`,
    [accountId],
  );
  // The ledger: a consume per document at its creation, a refund per failure, a top-up per 1000, a recharge a month,
  // and `adjustments` small adjustments.
  await em.execute(
    `insert into transactions (id, account_id, livemode, type, delta_centavos, balance_after_centavos, reference_type, reference_id, note, created_at)
     select 'txn_' || pg_temp.b32_time((extract(epoch from t) * 1000)::bigint) || pg_temp.b32_random(), ?, false, type, delta, 0,
            ref_type, ref_id, note, t
       from (
         select created_at as t, 'consume' as type, -100 as delta, type as ref_type, id as ref_id, null as note, id as k from documents where account_id = ?
         union all
         select created_at + interval '1 second', 'refund', 100, type, id, null, id || 'r' from documents where account_id = ? and status = 'stamp_failed'
         union all
         select created_at + interval '2 seconds', 'recharge', 10000000, null, null, 'bench purchase', id || 'p'
           from documents where account_id = ? and folio % 1000 = 0
         union all
         select g, 'recharge', 50000, null, null, 'bench top-up', g::text from generate_series(now() - interval '365 days', now(), interval '30 days') g
         union all
         select now() - make_interval(secs => ? * 86400.0 * (1 - i::float8 / ?)), 'adjustment', 1, null, null, 'bench adjustment', 'a' || i
           from generate_series(1, ?) i
       ) e
      order by t, k`,
    [accountId, accountId, accountId, accountId, days, Math.max(adjustments, 1), adjustments],
  );
  // Each document's reservation is its consume, and a failure's refund reverses it (what the ledger audit follows).
  await em.execute(
    `update documents d set reservation_id = t.id from transactions t
      where d.account_id = ? and t.account_id = d.account_id and t.type = 'consume' and t.reference_id = d.id`,
    [accountId],
  );
  await em.execute(
    `update transactions r set reversal_of = d.reservation_id from documents d
      where r.account_id = ? and r.type = 'refund' and d.id = r.reference_id`,
    [accountId],
  );
  await em.execute(
    `insert into monthly_usage (account_id, livemode, month, timbres, spent_centavos)
     select account_id, livemode, date_trunc('month', created_at at time zone 'America/Mexico_City')::date,
            sum(case type when 'consume' then 1 else -1 end), -sum(delta_centavos)
       from transactions where account_id = ? and type in ('consume', 'refund') group by 1, 2, 3
     on conflict (account_id, livemode, month)
       do update set timbres = excluded.timbres, spent_centavos = excluded.spent_centavos`,
    [accountId],
  );
  // A ledger the audit finds clean: each entry's balanceAfter is the running sum, the balance the last one.
  await em.execute(
    `update transactions t set balance_after_centavos = s.after
       from (select id, sum(delta_centavos) over (order by seq) as after
               from transactions where account_id = ? and livemode = false) s
      where t.id = s.id`,
    [accountId],
  );
  await em.execute(
    `update balances set balance_centavos = (select balance_after_centavos from transactions
                                              where account_id = ? and livemode = false order by seq desc limit 1)
      where account_id = ? and livemode = false`,
    [accountId, accountId],
  );
}

/**
 * Stores the files of the account's stamped documents created in `month` (YYYY-MM, Mexico City) as the files queue
 * leaves them: each one's stamped XML, and `rendered` as its PDF and ZIP (the same for all), under the keys the row
 * names. Written straight into LocalFileStorage's layout (data, and the content type in a `.meta` sidecar) without its
 * fsyncs, which would make seeding minutes long. Answers how many documents got files.
 */
export async function seedStoredFiles(
  em: EntityManager,
  storageDir: string,
  accountId: string,
  month: string,
  rendered: { pdf: Buffer; zip: Buffer },
): Promise<number> {
  const rows: { files: Record<'xml' | 'pdf' | 'zip', string>; stamped_xml: string }[] = await em.execute(
    `select files, stamped_xml from documents
      where account_id = ? and stamped_xml is not null
        and created_at >= (?::date)::timestamp at time zone 'America/Mexico_City'
        and created_at < ((?::date) + interval '1 month')::timestamp at time zone 'America/Mexico_City'`,
    [accountId, `${month}-01`, `${month}-01`],
  );
  const write = async (key: string, bytes: Buffer, contentType: string) => {
    const data = path.join(storageDir, key);
    const meta = path.join(storageDir, '.meta', `${key}.json`);
    await fs.mkdir(path.dirname(data), { recursive: true });
    await fs.mkdir(path.dirname(meta), { recursive: true });
    await fs.writeFile(meta, JSON.stringify({ contentType }));
    await fs.writeFile(data, bytes);
  };
  const store = async (row: (typeof rows)[number]) => {
    await write(row.files.xml, Buffer.from(row.stamped_xml, 'utf8'), 'application/xml');
    await write(row.files.pdf, rendered.pdf, 'application/pdf');
    await write(row.files.zip, rendered.zip, 'application/zip');
  };
  // 32 at a time: the disk stays busy without thousands of open files.
  for (let i = 0; i < rows.length; i += 32) await Promise.all(rows.slice(i, i + 32).map(store));
  return rows.length;
}
