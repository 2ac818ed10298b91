import { notFound } from 'next/navigation';
import { NotFoundError } from '@cfdi/services';

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * What `load` reads, or the 404 page when the services say it is not there: another account's, mode's or
 * merchant's thing is as absent as an unknown id. `alsoAbsent`: errors that mean the same on this page.
 */
export async function foundOrNotFound<T>(load: Promise<T>, ...alsoAbsent: ErrorClass[]): Promise<T> {
  try {
    return await load;
  } catch (error) {
    if (error instanceof NotFoundError || alsoAbsent.some((absent) => error instanceof absent)) notFound();
    throw error;
  }
}
