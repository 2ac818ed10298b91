import { Migration } from '@mikro-orm/migrations';

/** Documents still `stamping`, oldest first: what the stamp-recovery sweep reads every minute (a handful of rows). */
export class Migration20261121070000StampingIndex extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index documents_stamping_idx on documents (created_at) where status = 'stamping';`);
  }
}
