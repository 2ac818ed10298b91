import { bin, runCheckSteps, type CheckStep } from './check-steps';

/**
 * The checks over the whole tree that no workspace owns: formatting (prettier, every file it understands),
 * lint and typecheck of bench/ and scripts/ (the workspaces lint and typecheck their own src/), and the layering
 * rules of .dependency-cruiser.cjs (no cycle, no upward import).
 */
export async function repoChecks(
  run: (command: string, args: string[]) => Promise<number>,
  log: (line: string) => void,
): Promise<number> {
  const steps: CheckStep[] = [
    [
      'layering (dependency-cruiser: no cycle, no upward import)',
      bin('depcruise'),
      [
        '--config',
        '.dependency-cruiser.cjs',
        ...['apps', 'activities', 'workflows', 'packages', 'catalogs', 'cli', 'tools', 'bench', 'scripts'],
      ],
    ],
    ['formatting (prettier --check)', bin('prettier'), ['--check', '--log-level=warn', '.']],
    ['lint of bench/ and scripts/', bin('eslint'), ['bench', 'scripts']],
    ['typecheck of bench/', bin('tsc'), ['-p', 'bench/tsconfig.json', '--noEmit']],
    ['typecheck of scripts/', bin('tsc'), ['-p', 'scripts/tsconfig.json', '--noEmit']],
  ];
  return runCheckSteps(steps, run, log);
}
