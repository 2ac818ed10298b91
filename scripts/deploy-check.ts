// `tsx scripts/deploy-check.ts`, run by `npm test` (runtime checks): the deployment artefacts in deploy/ are valid.
// promtool (built from the Go module proxy into the tool cache on first use) checks the alert rules, and the Grafana
// dashboard's queries as recording rules; Helm lints and renders the chart, and the rendered manifests must parse,
// set only variables the platform reads (.env.example, or their <NAME>_FILE form), mount each pod only the secrets
// it uses, and carry probes, disruption budgets and autoscalers. That the rules' and dashboard's metrics are really
// exported is tools/robustness/test/operations.test.ts's job (it scrapes a running stack).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { ensureHelm, ensurePromtool } from '@cfdi/devstack';

const root = path.resolve(__dirname, '..');
const chart = path.join(root, 'deploy/helm/cfdi');
const problems: string[] = [];
const log = (line: string) => process.stderr.write(`${line}\n`);
const exec = (binary: string, args: string[]) =>
  execFileSync(binary, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const attempt = (what: string, run: () => string) => {
  try {
    return run();
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    problems.push(`${what}: ${(e.stdout ?? '') + (e.stderr ?? '') || e.message}`);
    return '';
  }
};

// Alert rules, then the dashboard's expressions as recording rules (promtool has no other offline PromQL parser).
const promtool = ensurePromtool(log);
attempt('promtool check rules deploy/prometheus/alerts.yml', () =>
  exec(promtool, ['check', 'rules', 'deploy/prometheus/alerts.yml']),
);
const dashboard = JSON.parse(fs.readFileSync(path.join(root, 'deploy/grafana/cfdi.json'), 'utf8')) as {
  panels: { title: string; targets?: { expr: string }[] }[];
};
const queries = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((t) => t.expr));
if (queries.length < 10) problems.push(`deploy/grafana/cfdi.json: only ${queries.length} queries`);
const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'cfdi-deploy-check-'));
const dashboardRules = path.join(scratch, 'dashboard-rules.yml');
fs.writeFileSync(
  dashboardRules,
  JSON.stringify({
    groups: [
      { name: 'dashboard', rules: queries.map((expr, i) => ({ record: `dashboard:query_${i}`, expr })) },
    ],
  }),
);
attempt("promtool check rules (the dashboard's queries)", () =>
  exec(promtool, ['check', 'rules', dashboardRules]),
);

// The chart: linted and rendered with every optional part on (ci/test-values.yaml) and with an existing Secret.
const helm = ensureHelm(log);
const variants: [string, string[]][] = [
  ['every option', ['-f', path.join(chart, 'ci/test-values.yaml')]],
  [
    'existing Secret, no console, portal or sandbox PAC',
    [
      '--set',
      'secrets.existingSecret=cfdi-secrets,config.storage.accessKeyId=key,console.enabled=false,portal.enabled=false,pacSandbox.enabled=false',
    ],
  ],
];
const documented = new Set(
  [...fs.readFileSync(path.join(root, '.env.example'), 'utf8').matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map(
    (m) => m[1]!,
  ),
);
const knows = (name: string) => documented.has(name) || documented.has(name.replace(/_FILE$/, ''));

interface Container {
  name: string;
  env?: { name: string; value?: string }[];
  volumeMounts?: { name: string; mountPath: string }[];
  livenessProbe?: unknown;
  readinessProbe?: unknown;
  resources?: { requests?: unknown };
}
interface PodSpec {
  containers: Container[];
  volumes?: { name: string; secret?: { items?: { key: string; path: string }[] } }[];
}
interface Manifest {
  apiVersion?: string;
  kind?: string;
  metadata?: { name?: string; annotations?: Record<string, string> };
  spec?: { template?: { spec: PodSpec } };
}
const SECRETS_OF: Record<string, RegExp> = {
  // What each pod may read from the Secret: least privilege, as in docker-compose.yml.
  api: /^(DATABASE_URL|REDIS_URL|MASTER_KEY|MASTER_KEYS_PREVIOUS|METRICS_TOKEN|S3_SECRET_ACCESS_KEY|PAC_PASSWORD|STRIPE_SECRET_KEY|STRIPE_WEBHOOK_SECRET)_FILE$/,
  worker:
    /^(DATABASE_URL|MASTER_KEY|MASTER_KEYS_PREVIOUS|METRICS_TOKEN|S3_SECRET_ACCESS_KEY|PAC_PASSWORD)_FILE$/,
  console: /^(DATABASE_URL|REDIS_URL|S3_SECRET_ACCESS_KEY|PAC_PASSWORD)_FILE$/,
  portal: /^(DATABASE_URL|REDIS_URL|S3_SECRET_ACCESS_KEY)_FILE$/,
  'pac-sandbox': /^PAC_SANDBOX_DATABASE_URL_FILE$/,
  migrate: /^DATABASE_URL_FILE$/,
};

for (const [variant, args] of variants) {
  attempt(`helm lint (${variant})`, () => exec(helm, ['lint', '--strict', chart, ...args]));
  const rendered = attempt(`helm template (${variant})`, () =>
    exec(helm, ['template', 'cfdi', chart, ...args]),
  );
  const documents = parseAllDocuments(rendered);
  const manifests: Manifest[] = [];
  for (const document of documents) {
    if (document.errors.length)
      problems.push(`${variant}: a rendered document does not parse: ${document.errors[0]}`);
    const manifest = document.toJS() as Manifest | null;
    if (!manifest) continue;
    if (!manifest.apiVersion || !manifest.kind || !manifest.metadata?.name)
      problems.push(`${variant}: a rendered document lacks apiVersion, kind or metadata.name`);
    manifests.push(manifest);
  }
  const kinds = (kind: string) => manifests.filter((m) => m.kind === kind).map((m) => m.metadata!.name!);
  for (const component of ['api', 'worker']) {
    for (const kind of ['Deployment', 'PodDisruptionBudget', 'HorizontalPodAutoscaler'])
      if (!kinds(kind).includes(`cfdi-${component}`))
        problems.push(`${variant}: no ${kind} cfdi-${component}`);
  }
  if (variant === 'every option')
    for (const face of ['console', 'portal'])
      if (!kinds('Deployment').includes(`cfdi-${face}`))
        problems.push(`${variant}: no Deployment cfdi-${face}`);
  const job = manifests.find((m) => m.kind === 'Job');
  if (!job?.metadata?.annotations?.['helm.sh/hook']?.includes('pre-upgrade'))
    problems.push(`${variant}: the migrations Job is not a pre-install/pre-upgrade hook`);

  for (const manifest of manifests) {
    const pod = manifest.spec?.template?.spec;
    if (!pod) continue;
    const component = manifest.metadata!.name!.replace(/^cfdi-/, '');
    const items = new Set(pod.volumes?.flatMap((v) => v.secret?.items?.map((i) => i.path) ?? []) ?? []);
    for (const container of pod.containers) {
      const where = `${variant}: ${manifest.kind} ${manifest.metadata!.name} (${container.name})`;
      for (const { name, value } of container.env ?? []) {
        if (!knows(name)) problems.push(`${where}: sets ${name}, which the platform does not read`);
        if (name.endsWith('_FILE')) {
          if (!SECRETS_OF[component]?.test(name))
            problems.push(`${where}: gets ${name}, which it does not use`);
          const file = value?.replace(/^\/run\/secrets\/cfdi\//, '');
          if (!file || !items.has(file)) problems.push(`${where}: ${name}=${value} is not a mounted secret`);
        } else if (/PASSWORD|SECRET|TOKEN|MASTER_KEY(?!_ID$)|DATABASE_URL|REDIS_URL/.test(name)) {
          // MASTER_KEY_ID only names the key: the key and the retired ones (MASTER_KEYS_PREVIOUS) are secrets.
          problems.push(`${where}: ${name} as a plain variable instead of a file`);
        }
      }
      if (!container.resources?.requests) problems.push(`${where}: no resource requests`);
      if (manifest.kind === 'Deployment' && !(container.livenessProbe && container.readinessProbe))
        problems.push(`${where}: no liveness or readiness probe`);
    }
  }
}
fs.rmSync(scratch, { recursive: true, force: true });

for (const problem of problems) process.stderr.write(`${problem}\n`);
if (problems.length) process.exitCode = 1;
else
  process.stdout.write(
    `deploy/: alert rules and ${queries.length} dashboard queries pass promtool; the chart lints and renders in ${variants.length} variants\n`,
  );
