import type { ReactNode } from 'react';
import { Callout } from '@radix-ui/themes';

/**
 * What the page's last action came to, read from the query its redirect set: a refusal (red, announced as an alert)
 * or a success (green, a status). Null shows nothing.
 */
export function OutcomeNotices({
  refused,
  done,
  testIds,
}: {
  refused: ReactNode | null;
  done: ReactNode | null;
  /** The `data-testid`s of the refusal's and the success's text. */
  testIds: { refused: string; done: string };
}) {
  return (
    <>
      {refused !== null && (
        <Callout.Root highContrast color="red" role="alert">
          <Callout.Text data-testid={testIds.refused}>{refused}</Callout.Text>
        </Callout.Root>
      )}
      {done !== null && (
        <Callout.Root highContrast color="green" role="status">
          <Callout.Text data-testid={testIds.done}>{done}</Callout.Text>
        </Callout.Root>
      )}
    </>
  );
}
