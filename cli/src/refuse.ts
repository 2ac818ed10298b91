/** Says on stderr what was refused or failed, and makes the command exit 1 (the other documents still go on). */
export function refuse(message: string): void {
  process.stderr.write(`error: ${message}\n`);
  process.exitCode = 1;
}
