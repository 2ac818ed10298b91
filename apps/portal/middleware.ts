import { NextResponse, type NextRequest } from 'next/server';
import { consumePortalLimits } from '@cfdi/services';
import { clientIp } from './src/client-ip';
import { limitStore } from './src/limit-redis';
import { fromAcceptLanguage, isLocale, LOCALE_COOKIE, MESSAGES } from './src/messages';

/**
 * The rate limits of every page that names receipt keys (`/r/KEY1,KEY2?add=KEY3`) and of the invoice pages: per
 * client address and per key, counted before the page reads anything (a page cannot answer 429 itself). Server
 * actions (POST) are counted by the action, which answers in the form instead.
 */
export async function middleware(request: NextRequest) {
  if (request.method !== 'GET' && request.method !== 'HEAD') return NextResponse.next();
  const { pathname, searchParams } = request.nextUrl;
  const keys = pathname.startsWith('/r/') ? safeDecode(pathname.slice(3)).split(',') : [];
  const add = searchParams.get('add');
  if (add) keys.push(add);
  const { config, redis } = limitStore();
  const decision = await consumePortalLimits(redis, clientIp(request.headers, config.trustedProxies), keys, {
    perIp: config.portal.rateLimitPerIp,
    perKey: config.portal.rateLimitPerKey,
  });
  if (decision.allowed) return NextResponse.next();
  const chosen = request.cookies.get(LOCALE_COOKIE)?.value;
  const locale = isLocale(chosen) ? chosen : fromAcceptLanguage(request.headers.get('accept-language'));
  const t = MESSAGES[locale];
  const html = `<!doctype html><html lang="${locale === 'es' ? 'es-MX' : 'en'}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${t.tooManyTitle}</title></head><body style="font-family:system-ui,sans-serif;margin:0;padding:24px;color:#1a1a1a"><main><h1>${t.tooManyTitle}</h1><p>${t.tooMany}</p><p><a href="/">${t.tryAnother}</a></p></main></body></html>`;
  return new NextResponse(html, {
    status: 429,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'retry-after': String(decision.retryAfterSeconds),
      'cache-control': 'no-store',
    },
  });
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

export const config = { matcher: ['/r/:path+', '/f/:path*'], runtime: 'nodejs' };
