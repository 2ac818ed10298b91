import type { Config } from '@cfdi/config';
import { signFileUrl, verifyFileSignature, type FileSignatureCheck } from './signed-urls';
import { fileUrlSecret } from './signing-secret';

/** Signs and checks file URLs with one secret, base URL, lifetime and clock (built once per process). */
export interface FileUrlSigner {
  /** A URL valid for the configured lifetime from now. */
  url(key: string): string;
  verify(key: string, expires: string | undefined, signature: string | undefined): FileSignatureCheck;
}

export function createFileUrlSigner(
  config: Pick<Config, 'masterKey' | 'signedUrlTtlSeconds'> & { api: Pick<Config['api'], 'publicBaseUrl'> },
  now: () => Date = () => new Date(),
): FileUrlSigner {
  const secret = fileUrlSecret(config.masterKey);
  // URLs signed under a previous master key keep working for their lifetime while a rotation is rolled out.
  const previousSecrets = (config.masterKey?.previous ?? []).map((key) => fileUrlSecret(key));
  return {
    url: (key) =>
      signFileUrl({
        baseUrl: config.api.publicBaseUrl,
        key,
        ttlSeconds: config.signedUrlTtlSeconds,
        secret,
        now: now(),
      }),
    verify: (key, expires, signature) => {
      const check = verifyFileSignature({ key, expires, signature, secret, now: now() });
      if (check.valid || check.reason !== 'bad_signature') return check;
      for (const previous of previousSecrets) {
        const old = verifyFileSignature({ key, expires, signature, secret: previous, now: now() });
        if (old.valid || old.reason !== 'bad_signature') return old;
      }
      return check;
    },
  };
}
