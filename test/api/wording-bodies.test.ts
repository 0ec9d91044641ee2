// What the user is told from an error body the service sent: serverMessage picks one short
// message out of any shape; fieldErrors lists `<field>: <message>` lines of a validation body.
import { describe, expect, it } from 'vitest';
import { clean, fieldErrors, serverMessage } from '../../src/api/wording.js';

const html = { 'content-type': 'text/html; charset=utf-8' };

describe('serverMessage', () => {
  it.each([
    ['an empty body', '', {}, undefined],
    ['a JSON string', '"  quota\\nexceeded "', {}, 'quota exceeded'],
    ['a blank JSON string', '"   "', {}, undefined],
    ['a JSON message', '{"message":"bad key"}', {}, 'bad key'],
    ['error_description first', '{"error":"x","error_description":"why"}', {}, 'why'],
    ['a blank message skipped', '{"message":"  ","detail":"the detail"}', {}, 'the detail'],
    ['a nested error object', '{"error":{"message":"nested"}}', {}, 'nested'],
    ['hydra:description', '{"hydra:description":"api platform"}', {}, 'api platform'],
    ['a problem+json title', '{"type":"about:blank","title":"Not Found"}', {}, 'Not Found'],
    ['no known key', '{"code":7}', {}, undefined],
    ['a JSON array', '[1,2]', {}, undefined],
    ['JSON null', 'null', {}, undefined],
    ['an HTML title', '<html><title>Bad <b>Gateway</b></title></html>', html, 'Bad Gateway'],
    ['an HTML h1 without title', '<html><body><h1>Oops</h1></body></html>', {}, 'Oops'],
    ['an h1 with attributes', '<html><body><h1 class="big">Oops</h1></body></html>', {}, 'Oops'],
    ['HTML after blank lines, untyped', '\n  <html><body><h1>Oops</h1></body></html>', {}, 'Oops'],
    ['HTML with neither', '<html><body>x</body></html>', html, undefined],
    ['an HTML title of tags only', '<title><b></b></title>', html, undefined],
    ['plain text', 'service\u0007 down', { 'content-type': 'text/plain' }, 'service down'],
    ['control characters only', '\u0001\u0002', {}, undefined],
  ])('%s', (_, body, headers, want) => {
    expect(serverMessage(Buffer.from(body), headers)).toBe(want);
  });

  it('cuts a long message to 200 columns, ending in …', () => {
    const m = serverMessage(Buffer.from(JSON.stringify({ message: 'x'.repeat(500) })), {});
    expect(m).toHaveLength(200);
    expect(m?.endsWith('…')).toBe(true);
    expect(clean('abc', 2)).toBe('a…');
    expect(clean('abc', 3)).toBe('abc');
  });
});

describe('fieldErrors', () => {
  it.each([
    ['not an object', [1], []],
    ['no known key', { message: 'x' }, []],
    [
      'errors as a map of lists',
      { errors: { url: ['is invalid', 'too long'] } },
      ['url: is invalid', 'url: too long'],
    ],
    [
      'violations with propertyPath',
      { violations: [{ propertyPath: 'events', message: 'empty' }] },
      ['events: empty'],
    ],
    ['property_path', { errors: [{ property_path: 'a', message: 'm' }] }, ['a: m']],
    ['property', { errors: [{ property: 'b', title: 't' }] }, ['b: t']],
    ['path', { errors: [{ path: 'c', message: 'm' }] }, ['c: m']],
    ['field', { errors: [{ field: 'd', message: 'm' }] }, ['d: m']],
    ['a field that is not a string', { errors: { e: [{ field: 3, message: 'm' }] } }, ['e: m']],
    ['nested objects', { fields: { a: { b: 'deep' } } }, ['a.b: deep']],
    ['a bare message list', { errors: ['one', 'two'] }, ['one', 'two']],
    ['numbers and booleans', { errors: { n: 5, t: true } }, ['n: 5', 't: true']],
    ['a bare number', { errors: 5 }, ['5']],
    ['nulls skipped', { errors: { a: null, b: 'kept' } }, ['b: kept']],
    [
      'all three keys',
      { errors: ['e'], violations: ['v'], fields: { f: 'x' } },
      ['e', 'v', 'f: x'],
    ],
  ])('%s', (_, value, want) => {
    expect(fieldErrors(value)).toEqual(want);
  });
});
