// Which proxy passwords are masked in what a user sees (src/mask.ts): the password of each
// proxy variable undici reads, as given and percent-decoded; a value without a scheme is read
// as http://; a value that is no URL, or that has no password, gives nothing to mask.
import { describe, expect, it } from 'vitest';
import { masker, proxyCredentials } from '../src/mask.js';

describe('proxy passwords to mask', () => {
  it('each of the six variables, in their order', () => {
    expect(
      proxyCredentials({
        http_proxy: 'http://a:pw-lower-http@p:1',
        HTTPS_PROXY: 'http://a:pw-upper-https@p:1',
        https_proxy: 'http://a:pw-lower-https@p:1',
        HTTP_PROXY: 'http://a:pw-upper-http@p:1',
        ALL_PROXY: 'http://a:pw-upper-all@p:1',
        all_proxy: 'http://a:pw-lower-all@p:1',
        FTP_PROXY: 'http://a:pw-not-read@p:1',
      }),
    ).toEqual([
      'pw-lower-https',
      'pw-lower-https',
      'pw-upper-https',
      'pw-upper-https',
      'pw-lower-http',
      'pw-lower-http',
      'pw-upper-http',
      'pw-upper-http',
      'pw-lower-all',
      'pw-lower-all',
      'pw-upper-all',
      'pw-upper-all',
    ]);
  });

  it('a value without a scheme is read as http://', () => {
    expect(proxyCredentials({ HTTPS_PROXY: 'user:pw-no-scheme@proxy:3128' })).toEqual([
      'pw-no-scheme',
      'pw-no-scheme',
    ]);
  });

  it('a password that is not valid percent-encoding is masked as given', () => {
    expect(proxyCredentials({ HTTPS_PROXY: 'http://u:pw%E0%A4%A@proxy:1' })).toEqual([
      'pw%E0%A4%A',
    ]);
  });

  it('no URL, no password, or an empty variable: nothing', () => {
    expect(
      proxyCredentials({
        HTTPS_PROXY: 'http://[not-a-url',
        https_proxy: 'http://user-only@proxy:1',
        HTTP_PROXY: '',
      }),
    ).toEqual([]);
  });
});

describe('masking', () => {
  it('every occurrence of a secret of 4 characters or more, and nothing shorter', () => {
    const mask = masker(['abc', 'wxyz']);
    expect(mask('abc wxyz-wxyz abc')).toBe('abc ****-**** abc');
  });

  it('a secret inside a longer one: the longer is masked whole, whatever the order given', () => {
    const mask = masker(['key1', 'key1-and-more', undefined]);
    expect(mask('[key1-and-more] [key1]')).toBe('[****] [****]');
  });

  it('no secrets: text unchanged', () => {
    expect(masker([])('any text')).toBe('any text');
    expect(masker([undefined, 'ab'])('ab')).toBe('ab');
  });
});
