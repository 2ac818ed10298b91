import fs from 'node:fs';

type Env = Record<string, string | undefined>;

/**
 * The environment as the loaders read it, where `<NAME>_FILE=/run/secrets/name` stands for `<NAME>=<the file's
 * contents>` (Docker and Kubernetes secrets are files) for every variable they read: one trailing newline is dropped,
 * as `echo` or an editor leaves one. Only names a loader asks for are looked up, so other programs' `*_FILE`
 * variables are never touched. Both `<NAME>` and `<NAME>_FILE` set, or a file that cannot be read, is a problem
 * (pushed to `problems`), never a silent choice.
 */
export function withSecretFiles(env: Env, problems: string[]): Env {
  const resolved = new Map<string, string | undefined>();
  const resolve = (name: string): string | undefined => {
    const file = env[`${name}_FILE`]?.trim();
    if (!file) return env[name];
    if (env[name]?.trim()) {
      problems.push(`${name} and ${name}_FILE are both set: keep one`);
      return env[name];
    }
    try {
      return fs.readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (error) {
      problems.push(
        `${name}_FILE="${file}" cannot be read: ${(error as NodeJS.ErrnoException).code ?? error}`,
      );
      return undefined;
    }
  };
  return new Proxy(env, {
    get(_target, name) {
      if (typeof name !== 'string') return undefined;
      if (!resolved.has(name)) resolved.set(name, resolve(name));
      return resolved.get(name);
    },
  });
}
