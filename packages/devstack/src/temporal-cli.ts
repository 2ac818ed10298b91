import { ensureGoTool, goToolPath, type GoTool } from './go-install';

/** Pinned: v1.5.1 is the newest Temporal CLI that installs with `go install`. */
export const TEMPORAL_CLI_VERSION = 'v1.5.1';

const TEMPORAL_CLI: GoTool = {
  title: 'the Temporal CLI',
  name: 'temporal',
  binary: 'temporal',
  pkg: 'github.com/temporalio/cli/cmd/temporal',
  version: TEMPORAL_CLI_VERSION,
};

export function temporalCliPath(): string {
  return goToolPath(TEMPORAL_CLI);
}

/** Builds the Temporal CLI into a cache outside the repository when it is missing (a few minutes the first time). */
export function ensureTemporalCli(log: (line: string) => void): string {
  return ensureGoTool(TEMPORAL_CLI, log, ', or set TEMPORAL_ADDRESS to a running Temporal server');
}
