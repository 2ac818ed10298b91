import path from 'node:path';
import { ensureNode24 } from '@cfdi/devstack';

const root = path.resolve(__dirname, '..');
const bin = (name: string) => path.join(root, 'node_modules', '.bin', name);

/**
 * The production-runtime part of `npm test` (README, "Production runtime"): build every app to dist/, check the
 * committed OpenAPI document and client are what the routes produce, lint the document with Redocly, run the
 * engine's unit tests on Node 24, and start the compiled stack once on Node 24 and once on this Node (one stamp
 * each). Runs after the workspaces' tests, with the same database, Redis and Temporal server.
 */
export async function runtimeChecks(run: (command: string, args: string[]) => Promise<number>, log: (line: string) => void): Promise<number> {
  const node24 = ensureNode24(log);
  const steps: [string, string, string[]][] = [
    // The console's `next build` (minutes on two cores) is left to its own workspace; every other app is bundled.
    ['build (turbo run build, console aside)', bin('turbo'), ['run', 'build', '--filter=!@cfdi/console', '--concurrency=1', '--output-logs=errors-only']],
    ['Dockerfile and docker-compose.yml', bin('tsx'), ['scripts/dockerfile-check.ts']],
    ['OpenAPI document and SDK up to date', bin('tsx'), ['scripts/sdk.ts', '--check']],
    ['OpenAPI lint (Redocly, recommended rules)', node24, [path.join(root, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', 'packages/sdk/openapi.json']],
    // The generated corpus (corpus.test.ts) is left to the Node 20 run: its minutes go to xmllint, xsltproc and openssl.
    ['engine unit tests (@cfdi/cfdi) on Node 24', node24, [path.join(root, 'node_modules/jest/bin/jest.js'), '--config', 'packages/cfdi/jest.config.js', '--testPathIgnorePatterns', 'corpus']],
    ['compiled stack on Node 24', bin('tsx'), ['scripts/smoke.ts', node24]],
    ['compiled stack on Node 20', bin('tsx'), ['scripts/smoke.ts', process.execPath]],
  ];
  const failed: string[] = [];
  for (const [title, command, args] of steps) {
    log(title);
    if ((await run(command, args)) !== 0) failed.push(title);
  }
  for (const title of failed) log(`FAILED: ${title}`);
  return failed.length ? 1 : 0;
}
