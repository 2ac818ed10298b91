// The ids, timestamps and parts every example shares.

export const MERCHANT = 'mch_0JD8X4Q2WZK9M3P5R6T8V0ABCD';
export const CUSTOMER = 'cus_0JD8X5A1BCK9M3P5R6T8V0ABCD';
export const PRODUCT = 'prod_0JD8X5B2CDK9M3P5R6T8V0ABCD';
export const INVOICE = 'inv_0JD8X6C3DEK9M3P5R6T8V0ABCD';
export const PAYMENT = 'pay_0JD8X7D4EFK9M3P5R6T8V0ABCD';
export const NOMINA = 'nom_0JD8X8E5FGK9M3P5R6T8V0ABCD';
export const RETENTION = 'ret_0JD8X8F6GHK9M3P5R6T8V0ABCD';
export const TRASLADO = 'tra_0JD8X8G7HJK9M3P5R6T8V0ABCD';
export const ENDPOINT = 'we_0JD8X9F6GHK9M3P5R6T8V0ABCD';
export const EVENT = 'evt_0JD8XAG7HJK9M3P5R6T8V0ABCD';
export const RECEIPT = 'rcpt_0JD8XBH8JKK9M3P5R6T8V0ABCD';
export const UUID = '5F3C2A91-8B7D-4E6F-9A0B-1C2D3E4F5A6B';
export const CREATED = '2026-11-27T18:04:05.123Z';
export const STAMPED = '2026-11-27T18:04:06.456Z';
export const FILES = {
  status: 'ready',
  xmlUrl: `https://api.example.com/files/${INVOICE}.xml?expires=1795889045&signature=3f1c…`,
  pdfUrl: `https://api.example.com/files/${INVOICE}.pdf?expires=1795889045&signature=9a0d…`,
  zipUrl: `https://api.example.com/files/${INVOICE}.zip?expires=1795889045&signature=c47e…`,
};
export const RECEIVER = {
  rfc: 'URE180429TM6',
  name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
  zip: '86991',
  regimenFiscal: '601',
};
export const CSD = {
  object: 'csd',
  serialNumber: '30001000000500003416',
  rfc: 'EKU9003173C9',
  validFrom: '2023-05-18T11:43:51.000Z',
  validTo: '2027-05-18T11:43:51.000Z',
  status: 'active',
  registeredWithPac: true,
  updatedAt: CREATED,
};
