import { currentLocale } from '../src/locale';
import { KeyForm } from './key-form';

/** The start: a customer types the key printed on the ticket (scanning its QR opens /r/KEY directly). */
export default async function Home() {
  const { t } = await currentLocale();
  return (
    <main>
      <h1>{t.title}</h1>
      <div className="card">
        <p>{t.intro}</p>
        <KeyForm t={t} />
      </div>
    </main>
  );
}
