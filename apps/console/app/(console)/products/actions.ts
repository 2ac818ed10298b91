'use server';

import { revalidatePath } from 'next/cache';
import { redirect } from 'next/navigation';
import { createProduct, deleteProduct, updateProduct, type ProductCreate } from '@cfdi/services';
import { audited } from '../../../src/audited-action';
import { formProblem, numberOf, textOf, type FormState } from '../../../src/form-state';
import { platform } from '../../../src/platform';
import { recordContext } from '../../../src/records-context';
import { requireSession } from '../../../src/session';

/** The form's fields as the services' create body; the IVA choice `exempt` is `taxable: false`. */
function productOf(form: FormData): ProductCreate {
  const iva = String(form.get('iva') ?? '0.16');
  return {
    description: String(form.get('description') ?? '').trim(),
    productCode: String(form.get('productCode') ?? '').trim(),
    unitCode: String(form.get('unitCode') ?? '').trim(),
    unitName: textOf(form.get('unitName')) ?? null,
    price: numberOf(form.get('price')) ?? Number.NaN,
    pricesIncludeTax: form.get('pricesIncludeTax') === 'true',
    taxable: iva !== 'exempt',
    ...(iva === 'exempt' ? {} : { ivaRate: Number(iva) }),
    sku: textOf(form.get('sku')) ?? null,
  };
}

export async function saveProduct(_previous: FormState, form: FormData): Promise<FormState> {
  const id = textOf(form.get('id'));
  return audited<FormState>('records.manage', async () => {
    const { ctx, scope } = await recordContext();
    try {
      const body = productOf(form);
      const saved = id ? await updateProduct(ctx, scope, id, body) : await createProduct(ctx, scope, body);
      revalidatePath('/products');
      return {
        result: { done: saved.id },
        audit: {
          action: id ? 'product.update' : 'product.create',
          target: saved.id,
          accountId: scope.accountId,
          livemode: scope.livemode,
          detail: { description: saved.description, sku: saved.sku },
        },
      };
    } catch (error) {
      return { result: formProblem(error), audit: null };
    }
  });
}

export async function removeProduct(form: FormData): Promise<void> {
  const id = String(form.get('id') ?? '');
  await audited('records.manage', async () => {
    const { ctx, scope } = await recordContext();
    await deleteProduct(ctx, scope, id);
    return {
      result: null,
      audit: { action: 'product.delete', target: id, accountId: scope.accountId, livemode: scope.livemode },
    };
  });
  redirect('/products');
}

/** The SAT's product or unit keys matching what was typed (a read: no audit row). */
export async function searchCatalog(
  catalog: 'products' | 'units',
  keyword: string,
): Promise<{ clave: string; nombre: string }[]> {
  await requireSession();
  const { catalogs } = await platform();
  const text = keyword.trim().slice(0, 100);
  if (text.length < 2) return [];
  const found =
    catalog === 'products' ? await catalogs.searchProducts(text, 15) : await catalogs.searchUnits(text, 15);
  return found.map(({ clave, nombre }) => ({ clave, nombre }));
}
