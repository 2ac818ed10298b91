import type { ReactNode } from 'react';
import { Theme } from '@radix-ui/themes';
import '@radix-ui/themes/styles.css';
import './console.css';
import { currentLocale } from '../src/i18n/locale';

export const metadata = { title: 'CFDI' };

export default async function RootLayout({ children }: { children: ReactNode }) {
  const { locale } = await currentLocale();
  return (
    <html lang={locale === 'es' ? 'es-MX' : 'en'}>
      <body>
        <Theme accentColor="indigo" grayColor="slate" radius="medium">
          {children}
        </Theme>
      </body>
    </html>
  );
}
