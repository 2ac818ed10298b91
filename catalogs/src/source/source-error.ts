/** The import source is unreadable or does not look like SAT catalog data. */
export class CatalogSourceError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'CatalogSourceError';
  }
}
