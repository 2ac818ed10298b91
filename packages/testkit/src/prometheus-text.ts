/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a scrape, and the family names its `# TYPE` lines declare (families without samples included). */
export function parsePrometheusText(text: string): { samples: Sample[]; families: Map<string, string> } {
  const samples: Sample[] = [];
  const families = new Map<string, string>();
  for (const line of text.split('\n')) {
    const type = /^# TYPE (\S+) (\S+)$/.exec(line);
    if (type) families.set(type[1]!, type[2]!);
    const sample = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)/.exec(line);
    if (!sample) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (sample[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g))
      labels[key!] = value!;
    samples.push({ name: sample[1]!, labels, value: Number(sample[3]) });
  }
  return { samples, families };
}

/** Every name a scrape can be queried by: its samples' names and, for each family, the family name itself. */
export function exportedNames(text: string): Set<string> {
  const { samples, families } = parsePrometheusText(text);
  return new Set(
    [...samples.map((s) => s.name), ...families.keys()].flatMap((name) => {
      const type = families.get(name);
      return type === 'histogram' ? [name, `${name}_bucket`, `${name}_sum`, `${name}_count`] : [name];
    }),
  );
}

const PROMQL_KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring']);

/** The metric names a PromQL expression selects (functions, keywords, label names and strings left out). */
export function metricNamesIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '');
  const names = [...bare.matchAll(/(?<![\w.:])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)]
    .filter((m) => !m[2]) // a function call
    .map((m) => m[1]!);
  return [...new Set(names.filter((name) => !PROMQL_KEYWORDS.has(name)))];
}
