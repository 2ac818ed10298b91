// One non-ASCII character anywhere in a script (esbuild and webpack copy the comments they keep as written) makes V8
// hold the whole source as two-byte characters: twice the memory, in every thread that loads it. A `\uXXXX` escape
// means the same character in a string, template, regular expression or identifier, and nothing in a comment.
module.exports.asciiSource = (code) =>
  code.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
