// The Next configuration the console and the portal share (packages/next-app/next.config.js).
module.exports = require('@cfdi/next-app/next.config.js');
