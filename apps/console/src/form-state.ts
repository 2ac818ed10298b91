import { AppError } from '@cfdi/services';

/**
 * What a form's server action hands back: a refusal of the services (a problem) as its message and the message of
 * each field it names, by JSON pointer (`/rfc`, `/items/0/quantity`), so the form shows it next to that field.
 */
export interface FormState {
  error?: string;
  fields?: Record<string, string>;
  done?: string;
}

/** A problem of the services as a form state; anything else (a bug, the database down) is a real error. */
export function formProblem(error: unknown): FormState {
  if (!(error instanceof AppError)) throw error;
  const fields: Record<string, string> = {};
  for (const { path, message } of error.extra.errors ?? []) fields[path] ??= message;
  return { error: error.message, fields };
}

/** A comma- or line-separated list typed in one field. */
export const listOf = (raw: unknown) =>
  String(raw ?? '')
    .split(/[,\n]/)
    .map((s) => s.trim())
    .filter(Boolean);

/** A typed text, or undefined when left empty (the services then apply their default). */
export function textOf(raw: unknown): string | undefined {
  const text = String(raw ?? '').trim();
  return text === '' ? undefined : text;
}

/** A typed number; NaN stays NaN so the services' own check names the field. */
export function numberOf(raw: unknown): number | undefined {
  const text = textOf(raw);
  return text === undefined ? undefined : Number(text);
}
