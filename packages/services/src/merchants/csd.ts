import type { KeyObject } from 'node:crypto';
import type { EntityManager } from '@cfdi/db';
import { openPrivateKey } from '@cfdi/cfdi';
import { ConflictError, NotFoundError } from '../errors';
import { openSecret, readableKeys, sealSecret, type MasterKeyring } from '../crypto/secret-box';
import { requireMasterKey } from '../crypto/require-master-key';
import type { PacClients } from '../pac-clients';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import { findMerchant, type FindMerchantOptions } from './merchant-access';
import { toCsdView, type CsdView } from './merchant-view';
import { registerCsdWithPac } from './csd-registration';
import { selectSigningCsd, upsertMerchantCsd } from './merchant-repository';
import { validateCsdUpload, type CsdUpload } from './csd-validation';

export interface CsdContext {
  em: EntityManager;
  now: () => Date;
  masterKey: MasterKeyring | null;
  pac: PacClients;
}

/**
 * `create` (POST) refuses to overwrite an existing CSD (409 csd_already_exists, so two integrations cannot
 * silently replace each other's certificate); `replace` (PUT) stores or replaces it. Either way the order is:
 * every local check, PAC registration, then one INSERT … ON CONFLICT statement — until it commits, the old CSD
 * keeps sealing, and a failure at any step leaves nothing half-saved.
 */
export async function saveCsd(
  ctx: CsdContext,
  scope: Scope,
  merchantId: string,
  upload: CsdUpload,
  mode: 'create' | 'replace',
): Promise<CsdView> {
  const merchant = await findMerchant(ctx.em, scope, merchantId);
  if (mode === 'create' && merchant.csd_serial_number !== null) throw alreadyExists(merchantId);
  const masterKey = requireMasterKey(ctx.masterKey, 'CSD private keys');
  const csd = validateCsdUpload(upload, merchant.rfc, ctx.now());
  await registerCsdWithPac(ctx.pac.forMode(scope.livemode), merchant.rfc, csd.certificateDer, merchantId);

  const saved = await upsertMerchantCsd(
    ctx.em,
    scope,
    merchantId,
    {
      serial_number: csd.info.noCertificado,
      rfc: csd.info.rfc,
      valid_from: csd.info.validFrom,
      valid_to: csd.info.validTo,
      certificate_der: csd.certificateDer,
      private_key_encrypted: sealSecret(masterKey, csd.keyDer, merchantId),
      password_encrypted: sealSecret(masterKey, Buffer.from(upload.password, 'utf8'), merchantId),
    },
    mode,
  );
  if (!saved) {
    if (mode === 'create') throw alreadyExists(merchantId);
    throw new NotFoundError('merchant', merchantId);
  }
  return retrieveCsd(ctx, scope, merchantId);
}

const alreadyExists = (merchantId: string) =>
  new ConflictError(
    'csd_already_exists',
    `Merchant ${merchantId} already has a CSD; replace it with PUT /v1/merchants/${merchantId}/csd.`,
  );

export async function retrieveCsd(
  ctx: Pick<CsdContext, 'em' | 'now'>,
  scope: Scope,
  merchantId: string,
): Promise<CsdView> {
  const view = toCsdView(await findMerchant(ctx.em, scope, merchantId), ctx.now());
  if (!view) throw new NotFoundError('CSD for merchant', merchantId);
  return view;
}

export interface SigningCsd {
  certificateDer: Buffer;
  privateKey: KeyObject;
  noCertificado: string;
  validTo: Date;
}

/**
 * The decrypted CSD for sealing (and, with `includeDeleted`, for cancelling a deleted merchant's documents).
 * The key material lives only in the returned KeyObject; nothing here logs it or puts it in an error.
 */
export async function loadSigningCsd(
  em: EntityManager,
  masterKey: MasterKeyring | null,
  scope: Scope,
  merchantId: string,
  options: FindMerchantOptions = {},
): Promise<SigningCsd> {
  await findMerchant(em, scope, merchantId, options);
  const row = await selectSigningCsd(em, merchantId);
  if (!row) throw new NotFoundError('CSD for merchant', merchantId);
  const keys = readableKeys(requireMasterKey(masterKey, 'CSD private keys'));
  const keyDer = openSecret(keys, row.private_key_encrypted, merchantId);
  const password = openSecret(keys, row.password_encrypted, merchantId).toString('utf8');
  return {
    certificateDer: row.certificate_der,
    privateKey: openPrivateKey(keyDer, password),
    noCertificado: row.serial_number,
    validTo: new Date(isoTimestamp(row.valid_to)),
  };
}
