/** A number from the environment, or the fallback when the variable is unset. */
export const envNumber = (name: string, fallback: number): number =>
  process.env[name] === undefined ? fallback : Number(process.env[name]);

/** Progress lines on stderr (stdout carries the JSON report), tagged and timestamped. */
export const stderrLog =
  (tag: string) =>
  (line: string): void =>
    void process.stderr.write(`[${tag} ${new Date().toISOString()}] ${line}\n`);

/** Runs a command's main and exits with its code; an exception prints and exits 1. */
export function runCommand(main: () => Promise<number>): void {
  main().then(
    (code) => process.exit(code),
    (error) => {
      console.error(error);
      process.exit(1);
    },
  );
}
