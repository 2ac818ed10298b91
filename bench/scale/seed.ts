// Set-based seeding for bench/scale: one account with N documents over the last 12 months (invoices, credit notes,
// global invoices, payments, payroll; stamped, cancelled, failed, a few in flight), one ledger consume per document,
// refunds for failures, top-ups and rare recharges, plus two other accounts with N/10 documents each. Ids are
// shaped like newId's (prefix, 10 base32 characters of the creation time in ms, 16 random ones), so id order is
// creation order exactly as in production and the id-range plans hold.
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

/** Seeds `documents` documents (and their ledger) into `accountId`'s test mode, all through a few statements. */
export async function seedAccount(
  em: EntityManager,
  accountId: string,
  merchantId: string,
  documents: number,
): Promise<void> {
  await em.execute(B32_FUNCTION);
  // n → type: 1 in 8 a payment, 1 in 12 payroll, else an invoice (1 in 15 of them a credit note, 1 in 30 global).
  // Status: 1 in 25 cancelled, 1 in 70 failed, the 5 newest still stamping (in flight: an older reservation without
  // an outcome is what the ledger audit reports as stale), the rest stamped; never cancel_pending.
  await em.execute(
    `insert into documents (id, account_id, livemode, merchant_id, type, kind, status, serie, folio, metodo_pago, forma_pago,
                            uso_cfdi, subtotal, total, saldo_pendiente, receiver, related_uuid, related_invoice_id, invoice_id,
                            num_parcialidad, monto, fecha_pago, input, fecha, uuid, stamped_at, reservation_state, files_status,
                            cancellation, created_at, updated_at)
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
            case when d.status in ('stamped', 'cancelled') then upper(md5(? || n::text)::uuid::text) end,
            case when d.status in ('stamped', 'cancelled') then d.t end,
            case when d.status = 'stamp_failed' then 'refunded' when d.status = 'stamping' then 'reserved' else 'confirmed' end,
            case when d.status in ('stamped', 'cancelled') then 'ready' else 'pending' end,
            case when d.status = 'cancelled' then '{"status":"accepted","motivo":"02"}'::jsonb end,
            d.t, d.t
       from generate_series(1, ?) n
       cross join lateral (
         select now() - (? - n) * (interval '365 days' / ?) as t,
                case when n % 8 = 0 then 'payment' when n % 12 = 0 then 'nomina' else 'invoice' end as type,
                case when n > ? - 5 then 'stamping' when n % 70 = 0 then 'stamp_failed' when n % 25 = 0 then 'cancelled' else 'stamped' end as status,
                case when n % 8 = 0 then 'P' when n % 12 = 0 then 'N' else 'A' end as serie
       ) d0
       cross join lateral (
         select d0.*, case d0.type when 'payment' then 'pay' when 'nomina' then 'nom' else 'inv' end
                      || '_' || pg_temp.b32_time((extract(epoch from d0.t) * 1000)::bigint) || pg_temp.b32_random() as id
       ) d`,
    [accountId, merchantId, accountId, documents, documents, documents, documents],
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
  // The ledger: a consume per document at its creation, a refund per failure, a top-up per 1000, a recharge a month.
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
       ) e
      order by t, k`,
    [accountId, accountId, accountId, accountId],
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
