'use client';

import { useState } from 'react';
import { Button, Flex, Text } from '@radix-ui/themes';
import { Field, FormDone, FormProblem } from '../../../../src/form-field';
import type { IssueMessages } from '../../../../src/i18n/issue-messages';
import { useFormAction } from '../../../../src/use-form-action';
import { saveMerchantLook, saveMerchantSettings, saveNextFolio, uploadMerchantLogo } from './actions';

/** An input's value (the console compiles without the DOM library). */
const valueOf = (input: unknown) => (input as { value: string }).value;

export interface MerchantSettings {
  id: string;
  serie: string;
  autoEmail: boolean;
  emailCopyTo: string[];
  brandColor: string | null;
  pdfNote: string | null;
  /** Its series, current first, with the folio each one's next document gets. */
  series: { serie: string; nextFolio: number }[];
}

/**
 * A merchant's series, automatic e-mail with its copies, PDF look (brand colour, note) and logo; the services'
 * problems under their fields.
 */
export function SettingsForms({ merchant, labels }: { merchant: MerchantSettings; labels: IssueMessages }) {
  const settings = useFormAction(saveMerchantSettings);
  const logo = useFormAction(uploadMerchantLogo);
  const folio = useFormAction(saveNextFolio);
  const look = useFormAction(saveMerchantLook);
  // The picker and the text show one colour; the text is what is sent (empty = the default).
  const [color, setColor] = useState(merchant.brandColor ?? '');
  const pickerValue = /^#[0-9a-fA-F]{6}$/.test(color) ? color.toLowerCase() : '#555555';
  return (
    <Flex direction="column" gap="4">
      <form onSubmit={settings.onSubmit} aria-label={labels.merchantSettings}>
        <input type="hidden" name="id" value={merchant.id} />
        <Flex gap="3" align="end" wrap="wrap">
          <Field label={labels.serie} path="/serie" state={settings.state}>
            {(a) => <input name="serie" defaultValue={merchant.serie} maxLength={10} size={10} {...a} />}
          </Field>
          <label className="field">
            {labels.merchantAutoEmail}
            <select name="autoEmail" defaultValue={String(merchant.autoEmail)}>
              <option value="true">{labels.yes}</option>
              <option value="false">{labels.no}</option>
            </select>
          </label>
          <Field label={labels.emailCopyTo} path="/emailCopyTo" state={settings.state}>
            {(a) => <input name="emailCopyTo" defaultValue={merchant.emailCopyTo.join(', ')} {...a} />}
          </Field>
          <Button type="submit" disabled={settings.pending}>
            {labels.save}
          </Button>
        </Flex>
        <FormProblem state={settings.state} shown={['/serie', '/emailCopyTo']} />
        <FormDone message={settings.state.done && !settings.state.error ? labels.saved : null} />
      </form>
      <form onSubmit={folio.onSubmit} aria-label={labels.folios}>
        <input type="hidden" name="id" value={merchant.id} />
        <ul data-testid="folio-series">
          {merchant.series.map((s) => (
            <li key={s.serie}>
              {labels.serie} <span className="mono">{s.serie}</span>: {labels.nextFolio} {s.nextFolio}
            </li>
          ))}
        </ul>
        <Flex gap="3" align="end" wrap="wrap">
          <Field label={labels.serie} path="/serie" state={folio.state}>
            {(a) => (
              <select name="serie" defaultValue={merchant.series[0]?.serie} {...a}>
                {merchant.series.map((s) => (
                  <option key={s.serie} value={s.serie}>
                    {s.serie}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={labels.nextFolio} path="/nextFolio" state={folio.state}>
            {(a) => <input name="nextFolio" inputMode="numeric" size={12} {...a} />}
          </Field>
          <Button type="submit" disabled={folio.pending}>
            {labels.setNextFolio}
          </Button>
        </Flex>
        <FormProblem state={folio.state} shown={['/serie', '/nextFolio']} />
        <FormDone message={folio.state.done && !folio.state.error ? labels.saved : null} />
      </form>
      <form onSubmit={look.onSubmit} aria-label={labels.pdfLook}>
        <input type="hidden" name="id" value={merchant.id} />
        <Flex gap="3" align="end" wrap="wrap">
          <input
            type="color"
            value={pickerValue}
            onChange={(e) => setColor(valueOf(e.currentTarget))}
            aria-label={labels.brandColorPicker}
            className="color-picker"
          />
          <Field label={labels.brandColor} path="/brandColor" state={look.state}>
            {(a) => (
              <input
                name="brandColor"
                value={color}
                onChange={(e) => setColor(valueOf(e.currentTarget))}
                placeholder="#0d47a1"
                maxLength={7}
                size={9}
                className="mono"
                {...a}
              />
            )}
          </Field>
        </Flex>
        <Flex gap="3" align="end" wrap="wrap" mt="3">
          <Field label={labels.pdfNote} path="/pdfNote" state={look.state}>
            {(a) => (
              <textarea
                name="pdfNote"
                defaultValue={merchant.pdfNote ?? ''}
                rows={6}
                cols={60}
                maxLength={500}
                className="pdf-note"
                {...a}
              />
            )}
          </Field>
          <Button type="submit" disabled={look.pending}>
            {labels.save}
          </Button>
        </Flex>
        <Text as="p" size="2" color="gray" highContrast mt="2">
          {labels.pdfLookHint}
        </Text>
        <FormProblem state={look.state} shown={['/brandColor', '/pdfNote']} />
        <FormDone message={look.state.done && !look.state.error ? labels.saved : null} />
      </form>
      <form onSubmit={logo.onSubmit} aria-label={labels.logo}>
        <input type="hidden" name="id" value={merchant.id} />
        <Flex gap="3" align="end" wrap="wrap">
          <Field label={labels.logoFile} path="/logo" state={logo.state}>
            {(a) => <input name="logo" type="file" accept="image/png,image/jpeg,image/webp" {...a} />}
          </Field>
          <Button type="submit" disabled={logo.pending}>
            {labels.uploadLogo}
          </Button>
        </Flex>
        <FormProblem state={logo.state} shown={['/logo']} />
        <FormDone message={logo.state.done && !logo.state.error ? labels.saved : null} />
      </form>
    </Flex>
  );
}
