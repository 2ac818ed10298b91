import type { NextRequest } from 'next/server';
import { normalizeReceiptKey } from '@cfdi/services';

export const dynamic = 'force-dynamic';

/** The key form's target: the ticket's page under its canonical key (any typed form of it; a non-key as typed). */
export function GET(request: NextRequest): Response {
  const typed = (request.nextUrl.searchParams.get('key') ?? '').trim().slice(0, 40);
  const location = typed ? `/r/${encodeURIComponent(normalizeReceiptKey(typed) ?? typed)}` : '/';
  return new Response(null, { status: 303, headers: { location } });
}
