import type PDFDocument from 'pdfkit';
import { installAfmCache } from './afm-cache';

let loaded: typeof PDFDocument | undefined;

/**
 * pdfkit (and fontkit with it) is required by the first PDF a process renders, not when @cfdi/cfdi loads: the API
 * renders a PDF only on its first download. With qrcode, archiver and Stripe (loaded the same way) these modules
 * held 9 MB of heap and 6 MB of RSS in an idle API (bench/README.md, Stamping). The font cache is installed then.
 */
export function pdfkit(): typeof PDFDocument {
  if (!loaded) {
    loaded = require('pdfkit') as typeof PDFDocument;
    installAfmCache(loaded);
  }
  return loaded;
}
