import { execFileSync, spawnSync } from 'node:child_process';

/** Debian packages behind the command-line tools the test suites and SAT checks call. */
const SYSTEM_TOOLS: Record<string, string> = {
  xmllint: 'libxml2-utils',
  xsltproc: 'xsltproc',
  xmlsec1: 'xmlsec1',
  pdftotext: 'poppler-utils',
  pdftoppm: 'poppler-utils',
  zbarimg: 'zbar-tools',
  // The console's end-to-end tests drive it through playwright-core (no browser download at test time).
  chromium: 'chromium',
};

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

/** Installs the missing tools with apt-get when running as root; otherwise says what to install. */
export function ensureSystemTools(log: (line: string) => void): void {
  const missing = [
    ...new Set(
      Object.entries(SYSTEM_TOOLS)
        .filter(([command]) => !has(command))
        .map(([, pkg]) => pkg),
    ),
  ];
  if (!missing.length) return;
  if (process.getuid?.() !== 0 || !has('apt-get')) {
    throw new Error(
      `missing system packages: ${missing.join(' ')} — install them (apt-get install -y ${missing.join(' ')})`,
    );
  }
  log(`installing ${missing.join(' ')} with apt-get…`);
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  if (install().status !== 0) {
    execFileSync('apt-get', ['update'], { stdio: 'inherit' });
    if (install().status !== 0) throw new Error(`apt-get install ${missing.join(' ')} failed`);
  }
}
