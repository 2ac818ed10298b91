'use client';

import { useRef, useState } from 'react';
import { inputValue } from '../../../src/input-value';
import { searchCatalog } from './actions';

/**
 * A SAT key typed or searched: as the user types a word ("consultoría", "pieza"), the catalog's matches are offered
 * as the input's suggestions, each as its key with its name.
 */
export function CatalogKeyInput({
  name,
  catalog,
  defaultValue,
  inputProps,
}: {
  name: string;
  catalog: 'products' | 'units';
  defaultValue?: string;
  inputProps: Record<string, unknown>;
}) {
  const [matches, setMatches] = useState<{ clave: string; nombre: string }[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const listId = `${name}-matches`;
  return (
    <>
      <input
        name={name}
        defaultValue={defaultValue}
        list={listId}
        required
        autoComplete="off"
        {...inputProps}
        onChange={(event) => {
          const typed = inputValue(event);
          clearTimeout(timer.current);
          // Not for a key already typed in full: 8 digits (products) or 2–3 characters (units).
          if (/^\d{8}$/.test(typed)) return;
          timer.current = setTimeout(() => void searchCatalog(catalog, typed).then(setMatches), 300);
        }}
      />
      <datalist id={listId}>
        {matches.map((m) => (
          <option key={m.clave} value={m.clave}>
            {m.nombre}
          </option>
        ))}
      </datalist>
    </>
  );
}
