'use client';

import { useEffect, useState, useTransition } from 'react';
import { Button, Flex } from '@radix-ui/themes';
import type { DraftTotals } from '@cfdi/services';
import { Field, FormProblem, KeyOptions } from '../../../src/form-field';
import { inputValue } from '../../../src/input-value';
import type { FormState } from '../../../src/form-state';
import type { IssueMessages } from '../../../src/i18n/issue-messages';
import type { Locale } from '../../../src/i18n/messages';
import type { DraftKind, IssueFormBody } from '../../../src/issuing';
import { documentTotals, saveDraft } from './actions';
import { TotalsList } from './totals-list';

type Choice = { id: string; label: string };
type Key = { clave: string; nombre: string };

/** The stamped invoice a credit note is for: it decides the merchant and the receiver. */
export interface CreditedInvoice {
  id: string;
  label: string;
  merchantId: string;
  /** Its moneda: the credit note's totals are in it. */
  currency: string;
}

/**
 * An invoice to a saved customer, or a credit note of a stamped invoice (`credited`), with saved products: every
 * change asks the services for the totals per tax (the engine the stamp runs), and "save draft" stores it; the
 * services' problems show under the fields they name.
 */
export function IssueForm({
  labels,
  locale,
  credited,
  merchants,
  customers,
  products,
  formas,
  usos,
  monedas,
  draft,
}: {
  labels: IssueMessages;
  locale: Locale;
  credited?: CreditedInvoice;
  /** A saved draft being edited: the form starts from it and saves over it. */
  draft?: { id: string; body: IssueFormBody };
  merchants: Choice[];
  customers: Choice[];
  products: Choice[];
  formas: Key[];
  usos: Key[];
  /** c_Moneda keys in force (MXN first). */
  monedas: Key[];
}) {
  const kind: DraftKind = credited ? 'credit_note' : 'invoice';
  const [body, setBody] = useState<IssueFormBody>(
    draft?.body ?? {
      merchantId: credited?.merchantId ?? merchants[0]?.id ?? '',
      ...(credited ? { relatedInvoiceId: credited.id, tipoRelacion: '01' } : {}),
      customerId: '',
      metodoPago: 'PUE',
      formaPago: '03',
      usoCfdi: '',
      items: [{ productId: '', quantity: '1' }],
    },
  );
  const [totals, setTotals] = useState<DraftTotals | null>(null);
  const [state, setState] = useState<FormState>({});
  const [pending, startTransition] = useTransition();
  // A credit note is in its invoice's currency (the services copy it); an invoice in the one chosen, MXN by default.
  const currency = credited ? credited.currency : body.moneda || 'MXN';
  const ready = (credited || body.customerId !== '') && body.items.every((item) => item.productId !== '');

  // Live totals: asked 300 ms after the last change, once the receiver and every item's product are chosen.
  useEffect(() => {
    if (!ready) return;
    let current = true;
    const timer = setTimeout(() => {
      void documentTotals(kind, body).then((answer) => {
        if (!current) return;
        setTotals(answer.totals ?? null);
        setState(answer.totals ? {} : answer);
      });
    }, 300);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [body, ready, kind]);

  const set = (field: keyof IssueFormBody) => (event: { target: unknown }) =>
    setBody({ ...body, [field]: inputValue(event) });
  const setItem = (i: number, field: 'productId' | 'quantity', value: string) =>
    setBody({ ...body, items: body.items.map((item, j) => (j === i ? { ...item, [field]: value } : item)) });

  return (
    <form
      aria-label={credited ? labels.newCreditNote : labels.newInvoice}
      onSubmit={(event) => {
        event.preventDefault();
        startTransition(async () => setState(await saveDraft(kind, body, draft?.id)));
      }}
    >
      <Flex direction="column" gap="3">
        <Flex gap="3" align="end" wrap="wrap">
          {credited ? (
            <>
              <p className="field" data-testid="credited-invoice">
                {labels.creditedInvoice}: {credited.label}
              </p>
              <Field label={labels.tipoRelacion} path="/tipoRelacion" state={state}>
                {(a) => (
                  <select name="tipoRelacion" value={body.tipoRelacion} onChange={set('tipoRelacion')} {...a}>
                    <option value="01">{labels.tipoRelacionCredit}</option>
                    <option value="03">{labels.tipoRelacionReturn}</option>
                  </select>
                )}
              </Field>
            </>
          ) : (
            <>
              <Field label={labels.merchant} path="/merchantId" state={state}>
                {(a) => (
                  <select name="merchantId" value={body.merchantId} onChange={set('merchantId')} {...a}>
                    {merchants.map((m) => (
                      <option key={m.id} value={m.id}>
                        {m.label}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label={labels.customer} path="/customerId" state={state}>
                {(a) => (
                  <select
                    name="customerId"
                    value={body.customerId}
                    onChange={set('customerId')}
                    required
                    {...a}
                  >
                    <option value="">{labels.chooseCustomer}</option>
                    {customers.map((c) => (
                      <option key={c.id} value={c.id}>
                        {c.label}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            </>
          )}
          <Field label={labels.usoCfdi} path="/usoCfdi" state={state}>
            {(a) => (
              <select name="usoCfdi" value={body.usoCfdi} onChange={set('usoCfdi')} {...a}>
                <option value="">{labels.usoOfCustomer}</option>
                <KeyOptions keys={usos} />
              </select>
            )}
          </Field>
          {!credited && (
            <Field label={labels.metodoPago} path="/metodoPago" state={state}>
              {(a) => (
                <select name="metodoPago" value={body.metodoPago} onChange={set('metodoPago')} {...a}>
                  <option value="PUE">PUE</option>
                  <option value="PPD">PPD</option>
                </select>
              )}
            </Field>
          )}
          <Field label={labels.formaPago} path="/formaPago" state={state}>
            {(a) => (
              <select name="formaPago" value={body.formaPago} onChange={set('formaPago')} {...a}>
                <KeyOptions keys={formas} />
              </select>
            )}
          </Field>
          {!credited && (
            <Field label={labels.moneda} path="/moneda" state={state}>
              {(a) => (
                <select name="moneda" value={currency} onChange={set('moneda')} {...a}>
                  <KeyOptions keys={monedas} />
                </select>
              )}
            </Field>
          )}
          {!credited && currency !== 'MXN' && (
            <Field label={labels.exchangeRate} path="/tipoCambio" state={state}>
              {(a) => (
                <input
                  name="tipoCambio"
                  value={body.tipoCambio ?? ''}
                  inputMode="decimal"
                  size={10}
                  onChange={set('tipoCambio')}
                  {...a}
                />
              )}
            </Field>
          )}
        </Flex>
        {body.items.map((item, i) => (
          <fieldset key={i} className="item-row choices">
            <legend>
              {labels.item} {i + 1}
            </legend>
            <Field label={labels.product} path={`/items/${i}/productId`} state={state}>
              {(a) => (
                <select
                  name={`items.${i}.productId`}
                  value={item.productId}
                  onChange={(e) => setItem(i, 'productId', inputValue(e))}
                  required
                  {...a}
                >
                  <option value="">{labels.chooseProduct}</option>
                  {products.map((p) => (
                    <option key={p.id} value={p.id}>
                      {p.label}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={labels.quantity} path={`/items/${i}/quantity`} state={state}>
              {(a) => (
                <input
                  name={`items.${i}.quantity`}
                  value={item.quantity}
                  inputMode="decimal"
                  size={8}
                  onChange={(e) => setItem(i, 'quantity', inputValue(e))}
                  {...a}
                />
              )}
            </Field>
            {body.items.length > 1 && (
              <Button
                type="button"
                variant="soft"
                color="gray"
                onClick={() => setBody({ ...body, items: body.items.filter((_, j) => j !== i) })}
              >
                {labels.removeItem}
              </Button>
            )}
          </fieldset>
        ))}
        <Flex gap="3" wrap="wrap">
          <Button
            type="button"
            variant="soft"
            onClick={() => setBody({ ...body, items: [...body.items, { productId: '', quantity: '1' }] })}
          >
            {labels.addItem}
          </Button>
          <Button type="submit" disabled={pending || !ready}>
            {labels.saveDraft}
          </Button>
        </Flex>
        {totals && <TotalsList totals={totals} labels={labels} locale={locale} currency={currency} />}
        <FormProblem
          state={state}
          shown={[
            '/merchantId',
            '/customerId',
            '/tipoRelacion',
            '/usoCfdi',
            '/metodoPago',
            '/formaPago',
            '/moneda',
            '/tipoCambio',
            ...body.items.flatMap((_, i) => [`/items/${i}/productId`, `/items/${i}/quantity`]),
          ]}
        />
      </Flex>
    </form>
  );
}
