import { NextResponse, type NextRequest } from 'next/server';
import { isLocale, LOCALE_COOKIE } from '../../src/messages';

export const dynamic = 'force-dynamic';

/** The language switch: remembers the choice for a year and goes back to the page it was on (this site's only). */
export function GET(request: NextRequest): NextResponse {
  const to = request.nextUrl.searchParams.get('to') ?? '';
  let back = '/';
  const referer = request.headers.get('referer');
  if (referer) {
    try {
      const url = new URL(referer);
      if (url.host === request.headers.get('host')) back = url.pathname + url.search;
    } catch {
      // A malformed Referer: back to the start.
    }
  }
  // A relative Location: behind a proxy the server's own idea of its host may not be the visitor's.
  const response = new NextResponse(null, { status: 303, headers: { location: back } });
  if (isLocale(to))
    response.cookies.set(LOCALE_COOKIE, to, {
      path: '/',
      maxAge: 365 * 86_400,
      sameSite: 'lax',
      httpOnly: true,
    });
  return response;
}
