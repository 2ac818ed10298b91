import { EXIT, printFailure } from './failures';

/** Says on stderr what was refused or failed, and makes the command exit 1 (the other documents still go on). */
export function refuse(message: string): void {
  printFailure({ code: 'refused', message });
  process.exitCode = EXIT.failed;
}
