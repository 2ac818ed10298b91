import path from 'node:path';

const root = path.resolve(__dirname, '..');

/** A tool installed in the repository's node_modules/.bin. */
export const bin = (name: string): string => path.join(root, 'node_modules', '.bin', name);

/** A check: its title, then the command and arguments that pass with exit code 0. */
export type CheckStep = [title: string, command: string, args: string[]];

/** Runs every step (a failure does not stop the others), names the failed ones, and answers the exit code. */
export async function runCheckSteps(
  steps: CheckStep[],
  run: (command: string, args: string[]) => Promise<number>,
  log: (line: string) => void,
): Promise<number> {
  const failed: string[] = [];
  for (const [title, command, args] of steps) {
    log(title);
    if ((await run(command, args)) !== 0) failed.push(title);
  }
  for (const title of failed) log(`FAILED: ${title}`);
  return failed.length ? 1 : 0;
}
