import { Type, type TSchema } from '@sinclair/typebox';
import { SEARCH_LIMIT } from '@cfdi/catalogs';
import { named } from '../openapi-components';

export const SearchQuerySchema = Type.Object({
  keyword: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 120,
      description:
        'Matches the key prefix, the description and the synonyms; accents and case ignored; every word must match.',
    }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: SEARCH_LIMIT.max, default: SEARCH_LIMIT.default }),
});

export const ProductSchema = named(
  'CatalogProduct',
  Type.Object({ clave: Type.String(), nombre: Type.String() }),
);
export const UnitSchema = named(
  'CatalogUnit',
  Type.Object({
    clave: Type.String(),
    nombre: Type.String(),
    simbolo: Type.Union([Type.String(), Type.Null()]),
  }),
);
export const PersonaTypesSchema = named(
  'CatalogPersonaTypesEntry',
  Type.Object({
    clave: Type.String(),
    nombre: Type.String(),
    fisica: Type.Boolean(),
    moral: Type.Boolean(),
  }),
);
export const FormaPagoSchema = named(
  'CatalogFormaPago',
  Type.Object({ clave: Type.String(), nombre: Type.String() }),
);

/** Catalog lists are complete or ranked searches: `{object: "list", data}` without has_more. */
export const CatalogListSchema = <T extends TSchema>(item: T) =>
  Type.Object({
    object: Type.Literal('list'),
    data: Type.Array(item, { description: 'The catalog entries, or the best matches of the search' }),
  });
