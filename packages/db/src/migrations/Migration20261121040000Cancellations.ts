import { Migration } from '@mikro-orm/migrations';

/** Payment complements' numbering guard and the bookkeeping of cancellation requests. */
export class Migration20261121040000Cancellations extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table documents
        -- the consume of the cancellation request in flight (or of the last one), refunded when the SAT refuses it
        add column cancel_reservation_id text collate "C" references transactions(id),
        -- what \`cancellation\` held before the request in flight; put back when the request never took effect
        add column cancellation_previous jsonb;

      -- NumParcialidad is unique among the live payments of an invoice: the database backs the service's sequence
      create unique index documents_live_parcialidad_idx on documents (invoice_id, num_parcialidad)
        where type = 'payment' and status in ('stamping', 'stamped', 'cancel_pending');
    `);
  }
}
