export type { FileStorage, StoredFile, StoredFileStream } from './file-storage';
export { LocalFileStorage } from './local-file-storage';
export type { S3FileStorage, S3StorageOptions } from './s3-file-storage';
export { createFileStorage } from './create-file-storage';
export { assertStorageKey, isStorageKey, InvalidStorageKeyError } from './storage-key';
export {
  signFileUrl,
  verifyFileSignature,
  FILES_PATH,
  type FileSignatureCheck,
  type SignFileUrlInput,
  type VerifyFileSignatureInput,
} from './signed-urls';
export { fileUrlSecret } from './signing-secret';
export { createFileUrlSigner, type FileUrlSigner } from './file-urls';
