import { Migration } from '@mikro-orm/migrations';

/** An invoice's open balance in MXN when it is a receivable (see OPEN_INVOICE in services), else null. */
const OPEN_BALANCE = (row: 'new' | 'old') => `
  case when ${row}.type = 'invoice' and coalesce(${row}.kind, '') <> 'credit_note' and ${row}.metodo_pago = 'PPD'
             and ${row}.status in ('stamped', 'cancel_pending') and ${row}.saldo_pendiente > 0
       then ${row}.saldo_pendiente * coalesce((${row}.input->>'tipoCambio')::numeric, 1) end`;

/**
 * What customers owe, per receiver, kept as invoices change (issue 41): the receivables page at a million documents
 * aggregated every open invoice of the account (200,000 in the bench, 2.4 s). `receivable_totals` holds each
 * receiver's open balance in MXN and its count of open invoices, moved by a trigger on `documents` in the same
 * transaction as the write that stamps, pays, credits or cancels an invoice, so the page takes the largest
 * receivers from an index and ages only their invoices. The trigger fires only for PPD invoices (its WHEN clause),
 * so other writes pay nothing; rows are created on the first open invoice and kept at zero after.
 */
export class Migration20261129000000ReceivableTotals extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table receivable_totals (
        account_id text not null,
        livemode boolean not null,
        rfc text not null,
        name text not null,
        open_mxn numeric not null default 0,
        invoices integer not null default 0,
        primary key (account_id, livemode, rfc)
      );`);
    this.addSql(
      'create index receivable_totals_largest_idx on receivable_totals (account_id, livemode, open_mxn desc, rfc) where invoices > 0;',
    );
    this.addSql(`
      create function receivable_totals_sync() returns trigger language plpgsql as $$
      declare
        before_mxn numeric := null;
        after_mxn numeric := null;
      begin
        if tg_op <> 'INSERT' then before_mxn := ${OPEN_BALANCE('old')}; end if;
        if tg_op <> 'DELETE' then after_mxn := ${OPEN_BALANCE('new')}; end if;
        if before_mxn is not null and (after_mxn is null or old.receiver->>'rfc' is distinct from new.receiver->>'rfc'
                                       or old.account_id <> new.account_id or old.livemode <> new.livemode) then
          update receivable_totals set open_mxn = open_mxn - before_mxn, invoices = invoices - 1
           where account_id = old.account_id and livemode = old.livemode and rfc = coalesce(old.receiver->>'rfc', '');
          before_mxn := null;
        end if;
        if after_mxn is not null and after_mxn is distinct from before_mxn then
          insert into receivable_totals as t (account_id, livemode, rfc, name, open_mxn, invoices)
          values (new.account_id, new.livemode, coalesce(new.receiver->>'rfc', ''), coalesce(new.receiver->>'name', ''),
                  after_mxn, 1)
          on conflict (account_id, livemode, rfc) do update
            set open_mxn = t.open_mxn + excluded.open_mxn - coalesce(before_mxn, 0),
                invoices = t.invoices + case when before_mxn is null then 1 else 0 end,
                name = excluded.name;
        end if;
        return null;
      end $$;`);
    const ppd = (row: 'new' | 'old') => `${row}.type = 'invoice' and ${row}.metodo_pago = 'PPD'`;
    this.addSql(`create trigger receivable_totals_insert after insert on documents
      for each row when (${ppd('new')}) execute function receivable_totals_sync();`);
    this.addSql(`create trigger receivable_totals_update after update on documents
      for each row when (${ppd('old')} or ${ppd('new')}) execute function receivable_totals_sync();`);
    this.addSql(`create trigger receivable_totals_delete after delete on documents
      for each row when (${ppd('old')}) execute function receivable_totals_sync();`);
    // The open invoices so far, counted under the trigger's lock on documents (taken by create trigger above).
    this.addSql(`
      insert into receivable_totals (account_id, livemode, rfc, name, open_mxn, invoices)
      select account_id, livemode, coalesce(receiver->>'rfc', ''), coalesce(max(receiver->>'name'), ''),
             sum(saldo_pendiente * coalesce((input->>'tipoCambio')::numeric, 1)), count(*)
        from documents
       where type = 'invoice' and coalesce(kind, '') <> 'credit_note' and metodo_pago = 'PPD'
         and status in ('stamped', 'cancel_pending') and saldo_pendiente > 0
       group by 1, 2, 3;`);
  }
}
