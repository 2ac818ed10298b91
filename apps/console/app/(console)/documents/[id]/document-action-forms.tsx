'use client';

import { useState } from 'react';
import Link from 'next/link';
import { Button, Card, Flex, Heading } from '@radix-ui/themes';
import { Field, FormDone, FormProblem, KeyOptions } from '../../../../src/form-field';
import { useFormAction } from '../../../../src/use-form-action';
import { inputValue } from '../../../../src/input-value';
import type { IssueMessages } from '../../../../src/i18n/issue-messages';
import { cancelDocument, emailDocument, recordPayment, replaceDocument } from './actions';

/**
 * A stamped document's e-mail (not a withholding certificate's) and cancellation (motive, and the replacing UUID for motive 01); an invoice's credit
 * note; a PPD invoice's payment (the amount, its date and form), which opens the complement once recorded.
 */
export function DocumentActionForms({
  id,
  labels,
  creditNote,
  payment,
  replaces,
  email: emailable = true,
}: {
  id: string;
  labels: IssueMessages;
  creditNote: boolean;
  /** False for a document that is not e-mailed (a withholding certificate: no PDF, see the API's e-mail routes). */
  email?: boolean;
  /** A foreign-currency invoice is paid in its currency, at the day's exchange rate the form asks for. */
  payment: { balance: string; currency: string; formas: { clave: string; nombre: string }[] } | null;
  /** The invoice this one replaces (relation 04), still to be cancelled with motive 01 naming this UUID. */
  replaces: { id: string; label: string; uuid: string } | null;
}) {
  const { state: replacing, onSubmit: replace, pending: drafting } = useFormAction(replaceDocument);
  const { state: closed, onSubmit: closeReplaced, pending: closing } = useFormAction(cancelDocument);
  // Kept once the replaced invoice is cancelled (the refreshed page no longer offers it), to say it was requested.
  const [replaced] = useState(replaces);
  const { state: mailed, onSubmit: email, pending: mailing } = useFormAction(emailDocument);
  const { state: paid, onSubmit: pay, pending: paying } = useFormAction(recordPayment);
  const { state: cancelled, onSubmit: cancel, pending: cancelling } = useFormAction(cancelDocument);
  const [motivo, setMotivo] = useState('02');
  return (
    <Card>
      <Heading as="h2" size="3" mb="3">
        {labels.actions}
      </Heading>
      {creditNote && (
        <Flex gap="3" align="center" wrap="wrap" mb="3">
          <Link href={`/issue?invoice=${id}`}>{labels.newCreditNote}</Link>
          <form onSubmit={replace} aria-label={labels.replace}>
            <input type="hidden" name="id" value={id} />
            <Button type="submit" variant="soft" disabled={drafting}>
              {labels.replace}
            </Button>
            <FormProblem state={replacing} shown={[]} />
          </form>
        </Flex>
      )}
      {replaced && (replaces || closed.done) && (
        <form onSubmit={closeReplaced} aria-label={labels.cancelReplaced}>
          <input type="hidden" name="id" value={replaced.id} />
          <input type="hidden" name="motivo" value="01" />
          <input type="hidden" name="folioSustitucion" value={replaced.uuid} />
          <Flex gap="3" align="center" wrap="wrap" mb="3">
            <span>
              {labels.replacesInvoice} <Link href={`/documents/${replaced.id}`}>{replaced.label}</Link>
            </span>
            <Button type="submit" color="red" disabled={closing || Boolean(closed.done)}>
              {labels.cancelReplaced}
            </Button>
          </Flex>
          <FormProblem state={closed} shown={[]} />
          <FormDone message={closed.done && !closed.error ? labels.cancelRequestedFor : undefined} />
        </form>
      )}
      {emailable && (
        <form onSubmit={email} aria-label={labels.sendEmail}>
          <input type="hidden" name="id" value={id} />
          <Flex gap="3" align="end" wrap="wrap">
            <Field label={labels.recipients} path="/to" state={mailed}>
              {(a) => <input name="to" type="text" {...a} />}
            </Field>
            <Button type="submit" disabled={mailing}>
              {labels.sendEmail}
            </Button>
          </Flex>
          <FormProblem state={mailed} shown={['/to']} />
          <FormDone
            message={mailed.done && !mailed.error ? `${labels.emailQueued} ${mailed.done}` : undefined}
          />
        </form>
      )}
      <form
        onSubmit={cancel}
        aria-label={labels.cancelDocument}
        style={emailable ? { marginTop: 'var(--space-4)' } : undefined}
      >
        <input type="hidden" name="id" value={id} />
        <Flex gap="3" align="end" wrap="wrap">
          <Field label={labels.motivo} path="/motivo" state={cancelled}>
            {(a) => (
              <select name="motivo" value={motivo} onChange={(e) => setMotivo(inputValue(e))} {...a}>
                {(Object.keys(labels.motivoShort) as (keyof IssueMessages['motivoShort'])[]).map((m) => (
                  <option key={m} value={m}>
                    {labels.motivoShort[m]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          {motivo === '01' && (
            <Field label={labels.folioSustitucion} path="/folioSustitucion" state={cancelled}>
              {(a) => <input name="folioSustitucion" size={36} {...a} />}
            </Field>
          )}
          <Button type="submit" color="red" disabled={cancelling}>
            {labels.cancelDocument}
          </Button>
        </Flex>
        <FormProblem state={cancelled} shown={['/motivo', '/folioSustitucion']} />
        <FormDone message={cancelled.done && !cancelled.error ? labels.cancelRequestedFor : undefined} />
      </form>
      {payment && (
        <form onSubmit={pay} aria-label={labels.recordPayment} style={{ marginTop: 'var(--space-4)' }}>
          <input type="hidden" name="id" value={id} />
          <Flex gap="3" align="end" wrap="wrap">
            <Field label={labels.amount} path="/monto" state={paid}>
              {(a) => (
                <input name="monto" defaultValue={payment.balance} inputMode="decimal" size={12} {...a} />
              )}
            </Field>
            {payment.currency !== 'MXN' && (
              <>
                <input type="hidden" name="monedaP" value={payment.currency} />
                <Field label={labels.exchangeRate} path="/tipoCambioP" state={paid}>
                  {(a) => <input name="tipoCambioP" inputMode="decimal" size={10} required {...a} />}
                </Field>
              </>
            )}
            <Field label={labels.paymentDate} path="/fechaPago" state={paid}>
              {(a) => <input name="fechaPago" type="datetime-local" {...a} />}
            </Field>
            <Field label={labels.formaPago} path="/formaPago" state={paid}>
              {(a) => (
                <select name="formaPago" defaultValue="03" {...a}>
                  <KeyOptions keys={payment.formas} />
                </select>
              )}
            </Field>
            <Button type="submit" disabled={paying}>
              {labels.recordPayment}
            </Button>
          </Flex>
          <FormProblem state={paid} shown={['/monto', '/tipoCambioP', '/fechaPago', '/formaPago']} />
          {paid.done && !paid.error && (
            <p role="status">
              <Link href={`/documents/${paid.done}`}>{labels.paymentRecorded}</Link>
            </p>
          )}
        </form>
      )}
    </Card>
  );
}
