import { isBrandColor, normalizePdfNote, pdfNoteProblem } from '@cfdi/cfdi/pure';
import type { FieldError } from '../errors';

/** The look fields of a create or update: null clears, absent keeps. */
export interface LookInput {
  brandColor?: string | null;
  pdfNote?: string | null;
}

/** The problems of the look fields, each under its path (the note is judged as it will be stored). */
export function lookProblems(input: LookInput): FieldError[] {
  const problems: FieldError[] = [];
  if (typeof input.brandColor === 'string' && !isBrandColor(input.brandColor))
    problems.push({
      path: '/brandColor',
      message: 'must be a colour as #RRGGBB (six hex digits), e.g. #0d47a1',
    });
  if (typeof input.pdfNote === 'string') {
    const note = normalizePdfNote(input.pdfNote);
    const problem = note === null ? undefined : pdfNoteProblem(note);
    if (problem) problems.push({ path: '/pdfNote', message: problem });
  }
  return problems;
}

/** The look fields as stored: the colour lowercase, the note normalised (blank is none); absent stays absent. */
export function normalizedLook(input: LookInput): LookInput {
  const out: LookInput = {};
  if (input.brandColor !== undefined) out.brandColor = input.brandColor?.toLowerCase() ?? null;
  if (input.pdfNote !== undefined)
    out.pdfNote = input.pdfNote === null ? null : normalizePdfNote(input.pdfNote);
  return out;
}
