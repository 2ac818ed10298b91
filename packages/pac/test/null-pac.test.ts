import { createPacClient } from '../src/create-pac-client';
import { FinkokPac } from '../src/finkok/finkok-pac';
import { NOT_CONFIGURED_DETAIL, NullPac } from '../src/null-pac';

test('NullPac answers unavailable with the configuration hint for every operation', async () => {
  const pac = new NullPac();
  const expected = {
    outcome: 'unavailable',
    reason: 'not_configured',
    detail: 'live PAC not configured: set PAC_URL, PAC_USERNAME, PAC_PASSWORD',
  };
  expect(NOT_CONFIGURED_DETAIL).toBe(expected.detail);
  expect(await pac.stamp('<x/>')).toEqual(expected);
  expect(await pac.lookupStamped('<x/>')).toEqual(expected);
  expect(await pac.stampRetention('<x/>')).toEqual(expected);
  expect(await pac.lookupStampedRetention('<x/>')).toEqual(expected);
  expect(await pac.cancelRetention('<x/>')).toEqual(expected);
  expect(await pac.cancel('<x/>')).toEqual(expected);
  expect(await pac.satStatus({ emisorRfc: 'A', receptorRfc: 'B', total: '1', uuid: 'u' })).toEqual(expected);
  expect(await pac.receipt({ uuid: 'u', emisorRfc: 'A' })).toEqual(expected);
  expect(await pac.registerCsd({ rfc: 'A' })).toEqual(expected);
  expect(await pac.updateCsd({ rfc: 'A', status: 'S' })).toEqual(expected);
  expect(await pac.getCsd('A')).toEqual(expected);
});

test('createPacClient picks Finkok only when URL and credentials are all set', () => {
  expect(createPacClient({ url: 'https://demo-facturacion.finkok.com', username: 'u' })).toBeInstanceOf(
    NullPac,
  );
  const finkok = createPacClient({
    url: 'https://demo-facturacion.finkok.com',
    username: 'u',
    password: 'p',
  });
  expect(finkok).toBeInstanceOf(FinkokPac);
  (finkok as FinkokPac).close();
});
