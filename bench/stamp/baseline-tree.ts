import { execSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root } from '../bench-stack';

/**
 * A checkout of `commit` to run beside this one: its sources exported, this checkout's node_modules linked package by
 * package, except the workspaces (`@cfdi/*`), which point at the export's own sources.
 */
export function baselineTree(commit: string): string {
  const dir = path.join(os.tmpdir(), `cfdi-bench-baseline-${commit}`);
  if (fs.existsSync(dir)) return dir;
  fs.mkdirSync(dir);
  execSync(`git archive ${commit} | tar -x -C ${dir}`, { cwd: root });
  for (const modules of [
    'node_modules',
    ...fs.readdirSync(path.join(root, 'apps')).map((app) => `apps/${app}/node_modules`),
    'packages/cfdi/node_modules',
  ]) {
    if (!fs.existsSync(path.join(root, modules))) continue;
    fs.mkdirSync(path.join(dir, modules), { recursive: true });
    for (const entry of fs.readdirSync(path.join(root, modules))) {
      if (entry === '@cfdi') continue;
      fs.symlinkSync(path.join(root, modules, entry), path.join(dir, modules, entry));
    }
  }
  fs.mkdirSync(path.join(dir, 'node_modules/@cfdi'));
  for (const entry of fs.readdirSync(path.join(root, 'node_modules/@cfdi'))) {
    fs.symlinkSync(
      fs.readlinkSync(path.join(root, 'node_modules/@cfdi', entry)),
      path.join(dir, 'node_modules/@cfdi', entry),
    );
  }
  return dir;
}
