import { Callout } from '@radix-ui/themes';
import { AppError } from '@cfdi/services';

/** A refusal from the services (bad filter, not allowed) shown in the page; anything else is a real error. */
export function problemOf(error: unknown): string {
  if (error instanceof AppError) {
    const fields = error.extra.errors?.map((e) => `${e.path.slice(1)}: ${e.message}`).join('; ');
    return fields || error.message;
  }
  throw error;
}

export function Problem({ message }: { message: string | null | undefined }) {
  if (!message) return null;
  return (
    <Callout.Root highContrast color="red" role="alert" mb="3">
      <Callout.Text>{message}</Callout.Text>
    </Callout.Root>
  );
}
