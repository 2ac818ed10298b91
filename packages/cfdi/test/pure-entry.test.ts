import fs from 'node:fs';
import path from 'node:path';

/**
 * `@cfdi/cfdi/pure` must stay importable from a Temporal workflow sandbox: its module graph
 * may only reach decimal.js (xmldom is pure JS too, but the arithmetic does not need it).
 */
function externalImports(entry: string): Set<string> {
  const seen = new Set<string>();
  const externals = new Set<string>();
  const visit = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    const source = fs.readFileSync(file, 'utf8');
    for (const m of source.matchAll(/^(?:import|export)\s+(?:type\s+)?[^'";]*?from\s+'([^']+)'/gm)) {
      const isTypeOnly = /^(?:import|export)\s+type\s/.test(m[0]);
      const spec = m[1]!;
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), `${spec}.ts`));
      else if (!isTypeOnly) externals.add(spec);
    }
  };
  visit(entry);
  return externals;
}

describe('pure entry point', () => {
  it('reaches no Node built-in and no heavy dependency', () => {
    expect([...externalImports(path.join(__dirname, '../src/pure.ts'))].sort()).toEqual(['decimal.js']);
  });

  it('resolves as @cfdi/cfdi/pure', async () => {
    const pure = await import('@cfdi/cfdi/pure');
    expect(typeof pure.computeInvoice).toBe('function');
    expect(typeof pure.validateInvoiceRequest).toBe('function');
  });
});
