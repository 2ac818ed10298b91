import { spawn } from 'node:child_process';

/**
 * XSD validation with xmllint against the SAT bundle schema (cfdi40-bundle.xsd). It costs ~0.4 s
 * per document (schema compilation per process), so it is opt-in: PAC_SANDBOX_XSD=true.
 */
export function xmllintValidator(xsdPath: string): (xml: string) => Promise<string | undefined> {
  return (xml) =>
    new Promise((resolve, reject) => {
      const child = spawn('xmllint', ['--noout', '--nonet', '--schema', xsdPath, '-'], {
        stdio: ['pipe', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', reject);
      child.on('close', (code) => {
        if (code === 0) return resolve(undefined);
        // First schema error only: the full list can be long and repeats the document.
        const first = stderr.split('\n').find((line) => line.includes('error')) ?? `xmllint exit ${code}`;
        resolve(first.replace(/^-:\d+: /, '').slice(0, 500));
      });
      child.stdin.end(xml);
    });
}
