import { Migration } from '@mikro-orm/migrations';

/**
 * The dispatcher makes each delivery's first attempt itself (retries are workflows): while it does, the event is
 * leased to it (`dispatch_lease_until`) rather than held in a transaction, and an event whose lease ran out (its
 * dispatcher died) is dispatched again through workflows only.
 */
export class Migration20261126400000WebhookFirstAttempt extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table events add column dispatch_lease_until timestamptz(3);');
  }
}
