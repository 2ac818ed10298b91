import fs from 'node:fs';
import path from 'node:path';

/** The monorepo root: the nearest ancestor whose package.json declares workspaces. */
export function repoRoot(from: string = __dirname): string {
  let dir = from;
  for (;;) {
    const pkg = path.join(dir, 'package.json');
    if (fs.existsSync(pkg) && JSON.parse(fs.readFileSync(pkg, 'utf8')).workspaces) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no workspace root above ${from}`);
    dir = parent;
  }
}

/** SAT reference material (XSD, XSLT, catalogs, test certificates) lives beside the repo in CI. */
export function defaultSatDir(): string {
  return process.env.SAT_DIR ?? path.resolve(repoRoot(), '../shared/sat');
}
