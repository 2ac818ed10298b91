import { Migration } from '@mikro-orm/migrations';

/**
 * Whether the merchant is registered in the border-region stimulus (IVA 8 %, "IVA crédito aplicado del 50%"). The
 * SAT postal-code catalog flag cannot be derived here, so it is the merchant's own declaration; off by default.
 */
export class Migration20261125200000BorderRegionStimulus extends Migration {
  override async up(): Promise<void> {
    this.addSql('alter table merchants add column border_region_stimulus boolean not null default false;');
  }
}
