import type * as XmlCrypto from 'xml-crypto';

// xml-crypto (and the xpath it brings) is required on first use, like the other XML libraries (@cfdi/cfdi xml/dom.ts):
// an API process that never signs or verifies a cancellation does not hold it.
let xmlCrypto: typeof XmlCrypto | undefined;
export const loadXmlCrypto = () => (xmlCrypto ??= require('xml-crypto') as typeof XmlCrypto);
