import { NextResponse, type NextRequest } from 'next/server';

/** Passes the requested path to the pages, so an expired session can send the user back here after signing in. */
export function middleware(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set('x-console-path', request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = { matcher: ['/((?!_next/|favicon.ico|login).*)'] };
