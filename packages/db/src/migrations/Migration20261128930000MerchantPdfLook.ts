import { Migration } from '@mikro-orm/migrations';

/**
 * A merchant's PDF look besides its logo: the brand colour (`#rrggbb`, null for the default grey) and the note
 * printed at the foot of its PDFs (bounded as the API bounds it; the API also refuses control characters).
 */
export class Migration20261128930000MerchantPdfLook extends Migration {
  override async up(): Promise<void> {
    this.addSql(`
      alter table merchants add column brand_color text check (brand_color ~ '^#[0-9a-f]{6}$');
      alter table merchants add column pdf_note text check (char_length(pdf_note) between 1 and 500);
    `);
  }
}
