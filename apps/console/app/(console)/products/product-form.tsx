'use client';

import { Button, Flex } from '@radix-ui/themes';
import type { ProductView } from '@cfdi/services';
import { Field, FormDone, FormProblem } from '../../../src/form-field';
import { useFormAction } from '../../../src/use-form-action';
import type { IssueMessages } from '../../../src/i18n/issue-messages';
import { saveProduct } from './actions';
import { CatalogKeyInput } from './catalog-key-input';

const SHOWN = [
  '/description',
  '/productCode',
  '/unitCode',
  '/unitName',
  '/price',
  '/ivaRate',
  '/sku',
] as const;

/** Create (no `product`) or edit a product, its SAT keys searched in the catalogs as typed. */
export function ProductForm({ labels, product }: { labels: IssueMessages; product?: ProductView }) {
  const { state, onSubmit, pending } = useFormAction(saveProduct);
  const iva = product && !product.taxable ? 'exempt' : String(product?.ivaRate ?? 0.16);
  return (
    // A created record clears the form (a new key remounts it); an edited one keeps its fields.
    <form
      key={product?.id ?? state.done ?? 'new'}
      onSubmit={onSubmit}
      aria-label={product ? labels.editProduct : labels.newProduct}
    >
      {product && <input type="hidden" name="id" value={product.id} />}
      <Flex gap="3" align="end" wrap="wrap">
        <Field label={labels.description} path="/description" state={state}>
          {(a) => (
            <input name="description" defaultValue={product?.description} required maxLength={1000} {...a} />
          )}
        </Field>
        <Field label={labels.productCode} path="/productCode" state={state}>
          {(a) => (
            <CatalogKeyInput
              name="productCode"
              catalog="products"
              defaultValue={product?.productCode}
              inputProps={a}
            />
          )}
        </Field>
        <Field label={labels.unitCode} path="/unitCode" state={state}>
          {(a) => (
            <CatalogKeyInput
              name="unitCode"
              catalog="units"
              defaultValue={product?.unitCode}
              inputProps={a}
            />
          )}
        </Field>
        <Field label={labels.unitName} path="/unitName" state={state}>
          {(a) => <input name="unitName" defaultValue={product?.unitName ?? ''} maxLength={20} {...a} />}
        </Field>
        <Field label={labels.price} path="/price" state={state}>
          {(a) => <input name="price" defaultValue={product?.price} required inputMode="decimal" {...a} />}
        </Field>
        <label className="field">
          {labels.pricesIncludeTax}
          <select name="pricesIncludeTax" defaultValue={String(product?.pricesIncludeTax ?? true)}>
            <option value="true">{labels.yes}</option>
            <option value="false">{labels.no}</option>
          </select>
        </label>
        <Field label={labels.ivaRate} path="/ivaRate" state={state}>
          {(a) => (
            <select name="iva" defaultValue={iva} {...a}>
              <option value="0.16">16 %</option>
              <option value="0.08">8 %</option>
              <option value="0">0 %</option>
              <option value="exempt">{labels.ivaExempt}</option>
            </select>
          )}
        </Field>
        <Field label={labels.sku} path="/sku" state={state}>
          {(a) => <input name="sku" defaultValue={product?.sku ?? ''} maxLength={100} {...a} />}
        </Field>
        <Button type="submit" disabled={pending}>
          {product ? labels.save : labels.create}
        </Button>
      </Flex>
      <FormProblem state={state} shown={SHOWN} />
      <FormDone message={state.done && !state.error ? `${labels.saved} ${state.done}` : null} />
    </form>
  );
}
