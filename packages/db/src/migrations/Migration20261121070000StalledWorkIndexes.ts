import { Migration } from '@mikro-orm/migrations';

/**
 * Stamps and cancellation requests still waiting for their workflow: what the resume-stalled sweep reads every
 * minute. Both sets are small (work in flight), so partial indexes keep the sweep from scanning every document.
 */
export class Migration20261121070000StalledWorkIndexes extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create index documents_stamping_idx on documents (created_at) where status = 'stamping';`);
    this.addSql(
      `create index documents_cancel_requested_idx on documents (id) where status = 'stamped' and cancellation->>'status' = 'pending';`,
    );
  }
}
