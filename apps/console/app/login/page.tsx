import { Button, Callout, Card, Flex, Heading, TextField } from '@radix-ui/themes';
import { currentLocale } from '../../src/i18n/locale';
import { signIn } from './actions';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'CFDI · Iniciar sesión / Sign in' };

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | undefined>>;
}) {
  const { t } = await currentLocale();
  const { error, expired, next } = await searchParams;
  const message =
    error === 'throttled' ? t.throttled : error ? t.badCredentials : expired ? t.sessionExpired : null;
  return (
    <main>
      <Flex justify="center" pt="9">
        <Card size="4" style={{ width: 380 }}>
          <form action={signIn}>
            <Flex direction="column" gap="3">
              <Heading as="h1" size="6">
                {t.appName}
              </Heading>
              {message && (
                <Callout.Root highContrast color={error ? 'red' : 'amber'} role="alert">
                  <Callout.Text data-testid="login-message">{message}</Callout.Text>
                </Callout.Root>
              )}
              <input type="hidden" name="next" value={next ?? '/'} />
              <label className="field">
                {t.email}
                <TextField.Root name="email" type="email" autoComplete="username" required />
              </label>
              <label className="field">
                {t.password}
                <TextField.Root name="password" type="password" autoComplete="current-password" required />
              </label>
              <Button type="submit">{t.signIn}</Button>
            </Flex>
          </form>
        </Card>
      </Flex>
    </main>
  );
}
