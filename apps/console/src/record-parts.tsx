import type { ReactNode } from 'react';
import { Button, Flex, Heading } from '@radix-ui/themes';

/**
 * The frame of a records list (customers, products): its heading, the create form, a search on `q` and the list,
 * so both pages look and search alike.
 */
export function RecordsPage({
  title,
  createTitle,
  form,
  search,
  q,
  children,
}: {
  title: string;
  createTitle: string;
  form: ReactNode;
  search: { label: string; button: string };
  q: string | undefined;
  children: ReactNode;
}) {
  return (
    <Flex direction="column" gap="4">
      <Heading as="h1">{title}</Heading>
      <Heading as="h2" size="3">
        {createTitle}
      </Heading>
      {form}
      <form className="filters" role="search">
        <label className="field">
          {search.label}
          <input name="q" defaultValue={q} />
        </label>
        <Button type="submit" variant="soft">
          {search.button}
        </Button>
      </form>
      {children}
    </Flex>
  );
}

/** A red button that posts `id` to a server action (delete a record, a draft). */
export function DeleteButton({
  action,
  id,
  label,
}: {
  action: (form: FormData) => Promise<void>;
  id: string;
  label: string;
}) {
  return (
    <form action={action}>
      <input type="hidden" name="id" value={id} />
      <Button type="submit" color="red" variant="soft">
        {label}
      </Button>
    </form>
  );
}
