import path from 'node:path';
import { bin, runCheckSteps, type CheckStep } from './check-steps';

const root = path.resolve(__dirname, '..');

/**
 * The production-runtime part of `npm test` (docs/operations.md, "Production runtime"): build every app to dist/, check the
 * committed OpenAPI document and client are what the routes produce, check the deployment artefacts (Dockerfile,
 * compose file, alert rules, dashboard, Helm chart), lint the document with Redocly, and start the compiled stack (one
 * stamp). Runs after the workspaces' tests, with the same database, Redis and Temporal server, on Node 24 like
 * everything `npm test` runs (scripts/bootstrap.mjs).
 */
export async function runtimeChecks(
  run: (command: string, args: string[]) => Promise<number>,
  log: (line: string) => void,
): Promise<number> {
  const steps: CheckStep[] = [
    // The console's and the portal's `next build` (minutes each on two cores) are left to their own workspaces
    // (their tests build them); every other app is bundled.
    [
      'build (turbo run build, console and portal aside)',
      bin('turbo'),
      [
        'run',
        'build',
        '--filter=!@cfdi/console',
        '--filter=!@cfdi/portal',
        '--concurrency=1',
        '--output-logs=errors-only',
      ],
    ],
    ['Dockerfile and docker-compose.yml', bin('tsx'), ['scripts/dockerfile-check.ts']],
    // promtool and Helm are built into the tool cache on first use (minutes, once); then a few seconds.
    ['alert rules, dashboard and Helm chart (promtool, helm)', bin('tsx'), ['scripts/deploy-check.ts']],
    ['OpenAPI document and SDK up to date', bin('tsx'), ['scripts/sdk.ts', '--check']],
    [
      'OpenAPI lint (Redocly, recommended rules)',
      process.execPath,
      [path.join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', 'packages/sdk/openapi.json'],
    ],
    ['compiled stack', bin('tsx'), ['scripts/smoke.ts', process.execPath]],
  ];
  return runCheckSteps(steps, run, log);
}
