import { sealedInvoice } from './helpers/cfdi-fixture';
import { startSandbox, type Harness } from './helpers/harness';
import { testCsd } from './helpers/sat-files';

const csd = testCsd('EKU9003173C9-csd');
let h: Harness;
beforeAll(async () => {
  h = await startSandbox();
  await h.pac.registerCsd({ rfc: 'EKU9003173C9' });
});
afterAll(() => h.close());

test('1,000 stamps get 1,000 distinct UUIDs', async () => {
  const total = 1000;
  const concurrency = 16;
  const uuids: string[] = [];
  let next = 0;
  const worker = async () => {
    while (next < total) {
      const folio = next++;
      const result = await h.pac.stamp(sealedInvoice({ fecha: h.fecha(), folio: `V-${folio}`, csd }));
      if (result.outcome !== 'stamped') throw new Error(`stamp ${folio}: ${JSON.stringify(result)}`);
      uuids.push(result.uuid);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  expect(uuids).toHaveLength(total);
  expect(new Set(uuids).size).toBe(total);
}, 60_000);
