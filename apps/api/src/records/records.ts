import {
  createCustomer,
  createProduct,
  deleteCustomer,
  deleteProduct,
  listCustomers,
  listProducts,
  retrieveCustomer,
  retrieveProduct,
  updateCustomer,
  updateProduct,
  type CustomerView,
  type ProductView,
} from '@cfdi/services';
import {
  CustomerCreateSchema,
  CustomerListQuerySchema,
  CustomerSchema,
  CustomerUpdateSchema,
  DeletedRecordSchema,
  ProductCreateSchema,
  ProductListQuerySchema,
  ProductSchema,
  ProductUpdateSchema,
} from '../schemas/records';
import type { RecordResource } from './declaration';
import { receiptRecord } from './receipt-record';

const ACCOUNT_WIDE =
  'Customers and products belong to the whole account and mode: keys restricted to some merchants get 403 on create, 404 on the others and empty lists.';

export const customerRecord: RecordResource<CustomerView> = {
  path: '/customers',
  tag: 'customers',
  object: 'customer',
  schema: CustomerSchema,
  createBody: CustomerCreateSchema,
  updateBody: CustomerUpdateSchema,
  listQuery: CustomerListQuerySchema,
  deleted: DeletedRecordSchema('customer'),
  services: {
    create: createCustomer as never,
    retrieve: retrieveCustomer,
    update: updateCustomer as never,
    del: deleteCustomer,
    list: listCustomers as never,
  },
  create: {
    operationId: 'createCustomer',
    summary: 'Create a customer',
    description: `Save a receiver's fiscal data, checked by the same rules as an invoice's receiver (400 on the field). Documents then take customerId instead of receiver. ${ACCOUNT_WIDE}`,
    tool: {
      name: 'create_customer',
      title: 'Create customer',
      description:
        'Save a customer (a CFDI receiver, its data as on its Constancia de Situación Fiscal) to invoice later by customerId. Calling it twice saves two.',
    },
  },
  retrieve: {
    operationId: 'retrieveCustomer',
    summary: 'Retrieve a customer',
    description: `A saved customer; a deleted one is 404. ${ACCOUNT_WIDE}`,
    tool: {
      name: 'get_customer',
      title: 'Get customer',
      description:
        'Read one saved customer (cus_…): fiscal data, default usoCfdi, e-mail addresses and language, address.',
    },
  },
  update: {
    operationId: 'updateCustomer',
    summary: 'Update a customer',
    description:
      'Change any field; the result is checked as a whole like a receiver. Documents already made keep the data they were made with.',
    tool: {
      name: 'update_customer',
      title: 'Update customer',
      description:
        'Change fields of a saved customer (id cus_…); send only what changes, null clears usoCfdi, autoEmail or address. Documents already stamped never change.',
    },
  },
  list: {
    operationId: 'listCustomers',
    summary: 'List customers',
    description: `Saved customers, newest first; q searches the RFC and legal name (any case), rfc matches exactly. ${ACCOUNT_WIDE}`,
    tool: {
      name: 'list_customers',
      title: 'List customers',
      description:
        'Find saved customers by part of the RFC or legal name, or an exact RFC; their id is the customerId of the create tools.',
    },
  },
  del: {
    operationId: 'deleteCustomer',
    summary: 'Delete a customer',
    description:
      'The customer leaves reads, lists and new documents; the documents made for it keep their copy of its data and their customerId.',
  },
  line: (c) =>
    `${c.id}: ${c.rfc} ${c.legalName}, regimen ${c.regimenFiscal}, zip ${c.zip}${c.usoCfdi ? `, uso ${c.usoCfdi}` : ''}`,
};

export const productRecord: RecordResource<ProductView> = {
  path: '/products',
  tag: 'products',
  object: 'product',
  schema: ProductSchema,
  createBody: ProductCreateSchema,
  updateBody: ProductUpdateSchema,
  listQuery: ProductListQuerySchema,
  deleted: DeletedRecordSchema('product'),
  services: {
    create: createProduct as never,
    retrieve: retrieveProduct,
    update: updateProduct as never,
    del: deleteProduct,
    list: listProducts as never,
  },
  conflicts: [409],
  create: {
    operationId: 'createProduct',
    summary: 'Create a product',
    description: `Save an item's SAT keys (catalog-checked), text, price and taxes. Items then take {productId, quantity}. A SKU another live product has is 409 on /sku. ${ACCOUNT_WIDE}`,
    tool: {
      name: 'create_product',
      title: 'Create product',
      description:
        'Save a product or service to invoice later as an item {productId, quantity}: its SAT keys, text, price and taxes.',
    },
  },
  retrieve: {
    operationId: 'retrieveProduct',
    summary: 'Retrieve a product',
    description: `A saved product; a deleted one is 404. ${ACCOUNT_WIDE}`,
    tool: {
      name: 'get_product',
      title: 'Get product',
      description:
        'Read one saved product (prod_…): keys, description, price and whether it includes taxes, tax rates, SKU.',
    },
  },
  update: {
    operationId: 'updateProduct',
    summary: 'Update a product',
    description:
      'Change any field; the result is checked as a whole like an item. Documents already made keep the items they were made with.',
    tool: {
      name: 'update_product',
      title: 'Update product',
      description:
        'Change fields of a saved product (id prod_…); send only what changes. Documents already stamped never change.',
    },
  },
  list: {
    operationId: 'listSavedProducts',
    summary: 'List products',
    description: `Saved products, newest first; q searches the description and SKU (any case), sku matches exactly. ${ACCOUNT_WIDE}`,
    tool: {
      name: 'list_products',
      title: 'List products',
      description:
        'Find saved products by part of the description or SKU, or an exact SKU; their id is the productId of items.',
    },
  },
  del: {
    operationId: 'deleteProduct',
    summary: 'Delete a product',
    description:
      'The product leaves reads, lists and new documents (its SKU becomes free); documents keep their items.',
  },
  line: (p) =>
    `${p.id}: ${p.description}${p.sku ? ` (SKU ${p.sku})` : ''}, ${p.productCode}/${p.unitCode}, ${p.price} MXN ${p.pricesIncludeTax ? 'taxes included' : 'before taxes'}`,
};

/** Every record resource, in the order routes and tools are listed. */
export const RECORDS = [customerRecord, productRecord, receiptRecord] as const;
