import type { ReactNode } from 'react';
import './portal.css';
import { currentLocale } from '../src/locale';

export async function generateMetadata() {
  const { t } = await currentLocale();
  return { title: t.title };
}

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { locale, t } = await currentLocale();
  return (
    <html lang={locale === 'es' ? 'es-MX' : 'en'}>
      <body>
        <div className="page">
          {children}
          <footer className="footer">
            <span>{t.poweredBy}</span>
            <a href={`/lang?to=${locale === 'es' ? 'en' : 'es'}`} lang={locale === 'es' ? 'en' : 'es-MX'}>
              {t.switchTo}
            </a>
          </footer>
        </div>
      </body>
    </html>
  );
}
