import { retrieveBalance } from '@cfdi/services';
import { em, platform } from '../src/platform';

export const dynamic = 'force-dynamic';

export default async function Home() {
  const { config } = await platform();
  const rows = await (await em()).execute<{ id: string }[]>('select id from accounts limit 1');
  const balance = rows[0] ? await retrieveBalance(await em(), config, { accountId: rows[0].id, livemode: false }) : null;
  return <main><h1>CFDI console</h1><pre>{JSON.stringify(balance)}</pre></main>;
}
