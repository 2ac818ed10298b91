import type { CSSProperties } from 'react';
import { brandTextOnWhite, readableTextOn } from '@cfdi/services';

/**
 * The CSS variables that give a merchant's page its brand colour: `--accent` for the header rule and the buttons,
 * `--accent-text` for text on the buttons (black or white, whichever contrasts more by WCAG luminance, so it always
 * reaches 4.5:1) and `--accent-ink` for links and secondary buttons on white (the brand colour when it reads there at
 * 4.5:1, else the page's text colour). Without a brand colour the stylesheet's defaults apply.
 */
export function brandStyle(brandColor: string | null): CSSProperties | undefined {
  if (!brandColor) return undefined;
  return {
    '--accent': brandColor,
    '--accent-text': readableTextOn(brandColor),
    '--accent-ink': brandTextOnWhite(brandColor) ?? '#1a1a1a',
  } as CSSProperties;
}
