// `tsx scripts/dockerfile-check.ts`, run by `npm test` after the build: what the Dockerfile and docker-compose.yml
// name must exist, since there is no Docker engine here to build the image. Every COPY source exists (in the
// repository, in the SAT folder for `--from=sat`, or as the build stage's output for `--from=build`), the image's
// Node is the one CI tests on, and every service starts compiled JavaScript that the build produced.
import fs from 'node:fs';
import path from 'node:path';
import { defaultSatDir } from '@cfdi/config';
import { NODE_24_VERSION, PRODUCTION_ENV } from '@cfdi/devstack';

const root = path.resolve(__dirname, '..');
const problems: string[] = [];
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** dist/ and .next/ are produced by the package's `build` script (the console's and the portal's are not part of the test build). */
function builtOrBuildable(relative: string): boolean {
  if (fs.existsSync(path.join(root, relative))) return true;
  const output = /^(.*?)\/(dist|\.next)(\/|$)/.exec(relative);
  if (!output) return false;
  const pkg = path.join(root, output[1]!, 'package.json');
  return fs.existsSync(pkg) && Boolean(JSON.parse(fs.readFileSync(pkg, 'utf8')).scripts?.build);
}

const dockerfile = read('Dockerfile').replace(/\\\n/g, ' ');
if (!dockerfile.includes(`ARG NODE_IMAGE=node:${NODE_24_VERSION}-`))
  problems.push(`Dockerfile: NODE_IMAGE is not Node ${NODE_24_VERSION}`);
// The benches and the Node 24 smoke test run the apps with PRODUCTION_ENV: they measure what the image runs.
for (const [name, value] of Object.entries(PRODUCTION_ENV)) {
  if (!dockerfile.includes(`ENV ${name}="${value}"`)) problems.push(`Dockerfile: ${name} is not "${value}"`);
}
for (const line of dockerfile.split('\n').filter((l) => /^COPY\s/.test(l))) {
  const words = line.trim().split(/\s+/).slice(1);
  const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
  const sources = words.filter((w) => !w.startsWith('--')).slice(0, -1);
  for (const source of sources) {
    const ok =
      from === 'sat'
        ? fs.existsSync(path.join(defaultSatDir(), source))
        : from === 'build'
          ? builtOrBuildable(source.replace(/^\/app\//, ''))
          : fs.existsSync(path.join(root, source));
    if (!ok) problems.push(`Dockerfile: ${line.trim()}: ${source} does not exist`);
  }
}

const commands = [
  ...dockerfile.matchAll(/^CMD \["node", "([^"]+)"/gm),
  ...read('docker-compose.yml').matchAll(/command: \[(["'])node\1, (["'])([^"']+)\2/g),
].map((m) => m.at(-1)!);
for (const script of commands)
  if (!fs.existsSync(path.join(root, script)))
    problems.push(`${script} (a service's entry point) was not built`);
if (/\btsx\b/.test(read('docker-compose.yml')))
  problems.push('docker-compose.yml still runs TypeScript through tsx');

for (const problem of problems) process.stderr.write(`${problem}\n`);
process.stdout.write(
  problems.length
    ? ''
    : `Dockerfile and docker-compose.yml: ${commands.length} entry points built, every COPY source present\n`,
);
process.exit(problems.length ? 1 : 0);
