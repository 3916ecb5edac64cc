/**
 * What the board's pipeline (post-html.ts) uses of highlight.js's types: a grammar. Its own types begin with
 * `/// <reference lib="dom" />`, which would give the server and src/common the DOM's globals; tsconfig.base.json
 * maps `highlight.js` and its grammars here instead.
 */
export type LanguageFn = (hljs?: unknown) => unknown;
declare const grammar: LanguageFn;
export default grammar;
