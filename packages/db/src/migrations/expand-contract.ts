/**
 * A rolling upgrade runs the new release's migrations while the previous release's API and workers still serve: a
 * migration must only expand the schema (new tables, nullable or defaulted columns, looser constraints, indexes) so
 * that the previous code keeps working. A step that contracts it breaks that code, so it waits for a later release,
 * after nothing reads or writes the old shape any more. `expand-contract.test.ts` refuses a migration with such a
 * step unless the migration says why the previous release is unaffected (`rollingUpgradeSafe`).
 */
const CONTRACT_STEPS: Array<[RegExp, string]> = [
  [/\bdrop\s+table\b/i, 'drops a table'],
  [/\bdrop\s+column\b/i, 'drops a column'],
  [/\brename\s+(column\s+|constraint\s+)?\S+\s+to\b|\brename\s+to\b/i, 'renames'],
  [/\balter\s+column\s+\S+\s+(set\s+data\s+)?type\b/i, "changes a column's type"],
  [/\balter\s+column\s+\S+\s+set\s+not\s+null\b/i, 'makes a column required'],
  [
    /\badd\s+(column\s+)?(?!constraint\b)(?![^;]*\bdefault\b)[^;]*\bnot\s+null\b/i,
    'adds a required column without a default',
  ],
  [/\badd\s+constraint\b/i, 'adds a constraint the previous release may violate'],
  [/\bdrop\s+(view|function|type|sequence|schema)\b/i, 'drops an object the previous release may use'],
];

export interface ContractStep {
  statement: string;
  why: string;
}

/** The statements of `sql` that contract the schema, each with what it does. */
export function contractSteps(sql: string): ContractStep[] {
  const found: ContractStep[] = [];
  for (const statement of sql.split(';').map((s) => s.replace(/--[^\n]*/g, '').trim())) {
    if (!/^alter\s+table\b|^drop\b/i.test(statement)) continue;
    for (const [pattern, why] of CONTRACT_STEPS)
      if (pattern.test(statement)) found.push({ statement: statement.replace(/\s+/g, ' '), why });
  }
  return found;
}
