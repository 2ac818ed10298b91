import { migrationsList } from './index';
import { contractSteps } from './expand-contract';

const whys = (sql: string) => contractSteps(sql).map((step) => step.why);

it('finds the steps that break the release still running during a rolling upgrade', () => {
  expect(whys('drop table old_things')).toEqual(['drops a table']);
  expect(whys('alter table documents drop column folio')).toEqual(['drops a column']);
  expect(whys('alter table documents rename column folio to number')).toEqual(['renames']);
  expect(whys('alter table documents rename to invoices')).toEqual(['renames']);
  expect(whys('alter table documents alter column total type numeric(20, 6)')).toEqual([
    "changes a column's type",
  ]);
  expect(whys('alter table documents alter column request set not null')).toEqual([
    'makes a column required',
  ]);
  expect(whys('alter table documents add column kind text not null')).toEqual([
    'adds a required column without a default',
  ]);
  expect(whys('alter table documents add constraint one_draft check (status <> $$x$$)')).toEqual([
    'adds a constraint the previous release may violate',
  ]);
  expect(whys('drop function stamp_count')).toEqual(['drops an object the previous release may use']);
});

it('lets expanding steps through', () => {
  const expanding = `
    create table things (id text primary key, name text not null);
    alter table documents add column request jsonb;
    alter table documents add column attempts int not null default 0;
    alter table documents alter column folio drop not null;
    alter table documents drop constraint documents_status_check;
    create index documents_by_status on documents (status);
    -- a comment that says drop table things
  `;
  expect(contractSteps(expanding)).toEqual([]);
});

it('every migration only expands the schema, or says why its contracting steps leave the previous release working', async () => {
  for (const { name, class: MigrationClass } of migrationsList) {
    // addSql only collects the statements; up() touches no database.
    const migration = new MigrationClass({} as never, {} as never);
    await migration.up();
    const steps = contractSteps(migration.getQueries().join(';\n'));
    const safe = (MigrationClass as { rollingUpgradeSafe?: string }).rollingUpgradeSafe;
    if (steps.length && !safe?.trim())
      throw new Error(
        `${name} contracts the schema and does not say why the previous release keeps working ` +
          `(static rollingUpgradeSafe, or move the step to a later release):\n` +
          steps.map((step) => `  ${step.why}: ${step.statement}`).join('\n'),
      );
  }
});
