import type { PdfLook } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import type { FileStorage, StoredFile } from '@cfdi/storage';
import { loadPdfLook } from '../merchants/pdf-look';
import { loadDocumentWithMerchantRefs, type DocumentWithMerchantRefs } from './document-row';
import { lockDocumentWork, markFailedFilesReady, markReadyFilesFailed } from './repository';
import { documentFileKeys } from './files';

/** Renders a stamped document's PDF and ZIP (`renderPdfAndZip` in production; tests count or break it). */
export type FilesRenderer = (
  uuid: string,
  stampedXml: string,
  look: PdfLook,
) => Promise<{ pdf: Buffer; zip: Buffer }>;

export interface OnDemandFilesDeps {
  storage: Pick<FileStorage, 'get' | 'put'>;
  renderFiles: FilesRenderer;
  /** Told about each render or write that failed (the next download tries again). */
  onFailure(documentId: string, error: Error): void;
}

/** The PDF or ZIP could not be rendered now; the document's files are marked `failed` until a download renders them. */
export class FileRenderFailedError extends Error {}

const DOCUMENT_FILE = /^([^/]+)\/(live|test)\/documents\/([^/]+)\/([0-9A-F-]{36})\.(xml|pdf|zip)$/;
/** Advisory-lock class of on-demand rendering (the second key is the document id's hash). */
const FILES_LOCK = 7071402;
const RENDER_ATTEMPTS = 2;
const CONTENT_TYPES = { xml: 'application/xml', pdf: 'application/pdf', zip: 'application/zip' } as const;

type RenderedFiles = Record<'pdf' | 'zip', Buffer>;

/**
 * Produces a stamped document's file that is not in storage yet: small documents' files are made on their first
 * download rather than on the stamping path (most integrators keep the XML and never fetch the PDF). The XML is the
 * stamped XML of the row; the PDF and ZIP are rendered once, whatever the number of concurrent first downloads: they
 * share the render in flight in this process, and a per-document lock makes other API processes wait for it and
 * find the files stored. Then they are served from storage. `produce` answers null when the key names no stamped
 * document's file. A render that fails twice marks the files `failed` (GET shows it) and throws
 * `FileRenderFailedError`; the XML stays downloadable and the next download of the PDF or ZIP tries again.
 */
export function createDocumentFileProducer(deps: OnDemandFilesDeps) {
  const inFlight = new Map<string, Promise<RenderedFiles | null>>();
  return {
    async produce(em: EntityManager, key: string): Promise<StoredFile | null> {
      const match = DOCUMENT_FILE.exec(key);
      if (!match) return null;
      const [, accountId, mode, documentId, uuid, kind] = match as unknown as [
        string,
        string,
        string,
        string,
        string,
        keyof typeof CONTENT_TYPES,
      ];
      const row = await loadDocumentWithMerchantRefs(em, documentId).catch(() => null);
      if (
        !row?.stamped_xml ||
        row.uuid !== uuid ||
        row.account_id !== accountId ||
        row.livemode !== (mode === 'live') ||
        row.files?.[kind] !== key
      )
        return null;
      // The XML is the row's: served from there until the PDF's render stores the three files.
      if (kind === 'xml')
        return { bytes: Buffer.from(row.stamped_xml, 'utf8'), contentType: CONTENT_TYPES.xml };
      let rendering = inFlight.get(documentId);
      if (!rendering) {
        rendering = renderOnce(em, deps, row).finally(() => inFlight.delete(documentId));
        inFlight.set(documentId, rendering);
      }
      const rendered = await rendering;
      return rendered ? { bytes: rendered[kind], contentType: CONTENT_TYPES[kind] } : deps.storage.get(key);
    },
  };
}

export type DocumentFileProducer = ReturnType<typeof createDocumentFileProducer>;

/**
 * Renders the PDF and ZIP and stores them, under the per-document lock. Resolves as soon as they are rendered, so the
 * download is answered while the fsynced writes go on (still under the lock: another process waits for them); null
 * when another process stored them first. A write that fails is reported and leaves the files to the next download.
 */
function renderOnce(
  em: EntityManager,
  deps: OnDemandFilesDeps,
  row: DocumentWithMerchantRefs,
): Promise<RenderedFiles | null> {
  const keys = documentFileKeys(row, row.uuid!);
  return new Promise((resolve, reject) => {
    em.fork()
      .transactional(async (tx) => {
        // Another API process may be rendering the same document: wait for it, then find its files stored.
        await lockDocumentWork(tx, FILES_LOCK, row.id);
        if ((await deps.storage.get(keys.pdf)) && (await deps.storage.get(keys.zip))) {
          resolve(null);
          return;
        }
        // The look as it is now: a PATCH of the merchant shows on files rendered after it, never on stored ones.
        const look = await loadPdfLook(
          tx,
          deps.storage,
          { accountId: row.account_id, livemode: row.livemode },
          row.merchant_id,
          row.merchant,
        );
        let files: RenderedFiles | undefined;
        for (let attempt = 1; !files; attempt++) {
          try {
            files = await deps.renderFiles(row.uuid!, row.stamped_xml!, look);
          } catch (error) {
            deps.onFailure(row.id, error as Error);
            if (attempt < RENDER_ATTEMPTS) continue;
            // `ready` promises a download that works; this one did not. The next download that renders sets it back.
            await markReadyFilesFailed(em.fork(), row.id);
            throw new FileRenderFailedError(
              `The files of document ${row.id} could not be rendered: ${(error as Error).message}`,
            );
          }
        }
        // Rendered: a download works again (from storage, or rendered anew if the writes below fail).
        await markFailedFilesReady(em.fork(), row.id);
        resolve(files);
        await deps.storage.put(keys.xml, Buffer.from(row.stamped_xml!, 'utf8'), CONTENT_TYPES.xml);
        await deps.storage.put(keys.pdf, files.pdf, CONTENT_TYPES.pdf);
        await deps.storage.put(keys.zip, files.zip, CONTENT_TYPES.zip);
      })
      .catch((error: Error) => {
        if (!(error instanceof FileRenderFailedError)) deps.onFailure(row.id, error);
        reject(error); // no effect once the rendered files were handed over
      });
  });
}
