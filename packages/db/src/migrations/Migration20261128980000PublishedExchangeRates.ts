import { Migration } from '@mikro-orm/migrations';

/**
 * The exchange rates published for foreign currencies (Banxico's FIX in the DOF for USD; its equivalences for the
 * others), as the operator records them: the centre of c_Moneda's variation band (CFDI40118). One rate per currency
 * and day, for every account: the SAT's rate is the same for all issuers.
 */
export class Migration20261128980000PublishedExchangeRates extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      create table published_exchange_rates (
        moneda text not null check (moneda ~ '^[A-Z]{3}$' and moneda not in ('MXN', 'XXX')),
        published_on date not null,
        rate numeric(24, 6) not null check (rate > 0),
        source text not null check (char_length(source) between 1 and 100),
        recorded_at timestamptz not null default now(),
        primary key (moneda, published_on)
      );
    `);
  }
}
