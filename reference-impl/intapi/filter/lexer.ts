import { FilterError } from './errors.js';

/** Tokens of the `_filter` grammar (docs/decisions/intapi/reference-choices.md "_filter grammar"). */
export type Token =
  | { readonly kind: 'punct'; readonly value: '(' | ')' | ','; readonly at: number }
  | { readonly kind: 'word'; readonly value: string; readonly at: number }
  | { readonly kind: 'string'; readonly value: string; readonly at: number }
  | { readonly kind: 'number'; readonly value: number; readonly at: number }
  | { readonly kind: 'guid' | 'datetime'; readonly value: string; readonly at: number };

const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;
const NUMBER = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const WHITESPACE = /[ \t\r\n]/;

/** The quoted text starting at `start` (a `'`), with `''` standing for one quote. */
function readQuoted(text: string, start: number): { value: string; end: number } {
  let value = '';
  let i = start + 1;
  for (;;) {
    const quote = text.indexOf("'", i);
    if (quote < 0) throw new FilterError('syntax', `unterminated string starting at position ${start}`);
    value += text.slice(i, quote);
    if (text[quote + 1] === "'") {
      value += "'";
      i = quote + 2;
    } else {
      return { value, end: quote + 1 };
    }
  }
}

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text.charAt(i);
    if (WHITESPACE.test(ch)) {
      i++;
    } else if (ch === '(' || ch === ')' || ch === ',') {
      tokens.push({ kind: 'punct', value: ch, at: i });
      i++;
    } else if (ch === "'") {
      const { value, end } = readQuoted(text, i);
      tokens.push({ kind: 'string', value, at: i });
      i = end;
    } else if (ch === '-' || (ch >= '0' && ch <= '9')) {
      NUMBER.lastIndex = i;
      const m = NUMBER.exec(text);
      if (m === null) throw new FilterError('syntax', `unexpected '${ch}' at position ${i}`);
      tokens.push({ kind: 'number', value: Number(m[0]), at: i });
      i += m[0].length;
    } else {
      WORD.lastIndex = i;
      const m = WORD.exec(text);
      if (m === null) throw new FilterError('syntax', `unexpected '${ch}' at position ${i}`);
      const word = m[0];
      const end = i + word.length;
      // guid'...' and datetime'...' are one token: the prefix touches the quote.
      if ((word === 'guid' || word === 'datetime') && text[end] === "'") {
        const { value, end: after } = readQuoted(text, end);
        tokens.push({ kind: word, value, at: i });
        i = after;
      } else {
        tokens.push({ kind: 'word', value: word, at: i });
        i = end;
      }
    }
  }
  return tokens;
}
