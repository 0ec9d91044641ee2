import { describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runSched } from '../../helpers/run.js';
import { opensslSign } from '../../helpers/openssl.js';
import type { Prompter } from '../../../src/prompt.js';
import { unavailable } from '../../helpers/skip.js';

const FIXTURE = new URL('../../fixtures/real-delivery.json', import.meta.url).pathname;
const BODY = readFileSync(FIXTURE);
const SECRET = 'whsk_3f9a1c0e7b2d4a6f';
const hmac = (secret: string, body: Buffer | string) =>
  createHmac('sha256', secret).update(body).digest();
const GOOD = hmac(SECRET, BODY).toString('base64');

const dir = mkdtempSync(join(tmpdir(), 'sched-sig-'));
function file(name: string, content: Buffer | string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

const verify = (sig: string, extra: string[] = [], opts: Parameters<typeof runSched>[1] = {}) =>
  runSched(['sig', 'verify', '--signature', sig, ...extra], opts);

describe('sched sig sign', () => {
  it('signs the real delivery byte-exact, from a file and from stdin', async () => {
    const a = await runSched(['sig', 'sign', '--secret', SECRET, '--payload-file', FIXTURE]);
    expect(a.code, a.stderr).toBe(0);
    expect(a.stdout).toBe(GOOD + '\n');
    expect(a.stderr).toBe('');
    const b = await runSched(['sig', 'sign'], {
      stdin: BODY,
      env: { SCHED_WEBHOOK_SECRET: SECRET },
    });
    expect(b.stdout).toBe(GOOD + '\n');
    const j = await runSched(['--json', 'sig', 'sign', '--secret', SECRET], { stdin: BODY });
    expect(JSON.parse(j.stdout)).toEqual({ signature: GOOD });
  });

  it('agrees with openssl over the fixture', async (t) => {
    const expected = opensslSign(SECRET, FIXTURE);
    if (unavailable(!expected && 'openssl is not installed: no cross-check')) {
      t.skip();
      return;
    }
    const r = await runSched(['sig', 'sign', '--secret', SECRET, '--payload-file', FIXTURE]);
    expect(r.stdout.trim()).toBe(expected);
  });

  it('does not re-encode bytes: invalid UTF-8 and CRLF are signed as they are', async () => {
    const raw = Buffer.from([0x7b, 0xff, 0xfe, 0x0d, 0x0a, 0x7d]);
    const r = await runSched([
      'sig',
      'sign',
      '--secret',
      'k',
      '--payload-file',
      file('raw.bin', raw),
    ]);
    expect(r.stdout.trim()).toBe(hmac('k', raw).toString('base64'));
  });

  it('streams a payload of several megabytes', async () => {
    const big = Buffer.alloc(20 * 1024 * 1024, 'a');
    const p = file('big.txt', big);
    const r = await runSched(['sig', 'sign', '--secret', 'k', '--payload-file', p]);
    expect(r.stdout.trim()).toBe(hmac('k', big).toString('base64'));
  });

  it('asks for the secret with a masked prompt on a terminal', async () => {
    const asked: string[] = [];
    const prompter = {
      password: async (message: string) => {
        asked.push(message);
        return SECRET;
      },
    } as unknown as Prompter;
    const r = await runSched(['sig', 'sign', '--payload-file', FIXTURE], { tty: true, prompter });
    expect(r.code, r.stderr).toBe(0);
    expect(asked).toEqual(['Webhook secret']);
    expect(r.stdout.trim()).toBe(GOOD);
  });

  it('exits 2 saying how to give the secret when it cannot prompt', async () => {
    const r = await runSched(['sig', 'sign'], { stdin: BODY });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/secret is needed to sign/);
    expect(r.stderr).toMatch(/--secret .*SCHED_WEBHOOK_SECRET/);
    const n = await runSched(['--no-input', 'sig', 'sign', '--payload-file', FIXTURE], {
      tty: true,
    });
    expect(n.code).toBe(2);
  });

  it('exits 2 instead of waiting on a terminal stdin, and names an unreadable file', async () => {
    const tty = await runSched(['sig', 'sign', '--secret', 'k'], { tty: true });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/give --payload-file <file> or pipe the payload/);
    const missing = await runSched([
      'sig',
      'sign',
      '--secret',
      'k',
      '--payload-file',
      join(dir, 'nope.json'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `cannot read payload file "${join(dir, 'nope.json')}": no such file`,
    );
    const isDir = await runSched([
      'sig',
      'verify',
      '--signature',
      'x',
      '--secret',
      'k',
      '--payload-file',
      dir,
    ]);
    expect(isDir.code).toBe(2);
    expect(isDir.stderr).toMatch(/it is a directory/);
  });
});

describe('sched sig verify', () => {
  it('says valid and exits 0 for the real delivery', async () => {
    const r = await verify(GOOD, ['--secret', SECRET, '--payload-file', FIXTURE]);
    expect(r).toEqual({ code: 0, stdout: 'valid\n', stderr: '' });
    const s = await verify(`  ${GOOD}\n`, [], {
      stdin: BODY,
      env: { SCHED_WEBHOOK_SECRET: SECRET },
    });
    expect(s.stdout).toBe('valid\n');
    const j = await verify(GOOD, ['--json', '--secret', SECRET], { stdin: BODY });
    expect(j.code).toBe(0);
    expect(JSON.parse(j.stdout)).toEqual({ valid: true, reason: null });
  });

  it('says invalid and exits 1 for a tampered payload, with --json too', async () => {
    const tampered = Buffer.from(BODY.toString('utf8').replace('Aarno Aukia', 'Aarno Aukiа'));
    const r = await verify(GOOD, ['--secret', SECRET], { stdin: tampered });
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('invalid\n');
    expect(r.stderr).toMatch(/signature does not match the payload from stdin/);
    expect(r.stderr).toMatch(/payload bytes or the secret differ/);
    const j = await verify(GOOD, ['--secret', SECRET, '-o', 'json'], { stdin: tampered });
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toEqual({
      valid: false,
      reason:
        'no common mistake explains it: the payload bytes or the secret differ from what was signed',
    });
  });

  it('--json names the likely cause as reason, the one the human output names', async () => {
    const withNewline = Buffer.concat([BODY, Buffer.from('\n')]);
    const human = await verify(GOOD, ['--secret', SECRET], { stdin: withNewline });
    const j = await verify(GOOD, ['--json', '--secret', SECRET], { stdin: withNewline });
    expect(j.code).toBe(1);
    const out = JSON.parse(j.stdout) as { valid: boolean; reason: string };
    expect(out.valid).toBe(false);
    expect(out.reason).toMatch(/^the payload ends with a newline that was not signed/);
    expect(human.stderr).toContain(`cause: ${out.reason}`);
    const hex = hmac(SECRET, BODY).toString('hex');
    const h = await verify(hex, ['--json', '--secret', SECRET], { stdin: BODY });
    expect(JSON.parse(h.stdout)).toMatchObject({
      valid: false,
      reason: expect.stringMatching(/is hex/),
    });
  });

  it('names a confirmed cause over a mere thing to check that comes before it', async () => {
    // A secret with a copied newline, used alike on both sides (so trimming it is not the fix),
    // and a payload saved with a newline that was not signed (which is).
    const secret = `${SECRET}\n`;
    const sig = hmac(secret, BODY).toString('base64');
    const withNewline = Buffer.concat([BODY, Buffer.from('\n')]);
    const human = await verify(sig, ['--secret', secret], { stdin: withNewline });
    expect(human.stderr).toMatch(/check: the secret has leading or trailing whitespace/);
    expect(human.stderr).toMatch(/cause: the payload ends with a newline that was not signed/);
    const j = await verify(sig, ['--json', '--secret', secret], { stdin: withNewline });
    expect(JSON.parse(j.stdout)).toEqual({
      valid: false,
      reason: expect.stringMatching(/^the payload ends with a newline that was not signed/),
    });
  });

  it('checks a payload of up to 16 MiB for common mistakes, and says when one is larger', async () => {
    const MiB = 1024 * 1024;
    // Exactly 16 MiB with an unsigned newline: still checked, and the newline named.
    const atLimit = Buffer.alloc(16 * MiB, 'a');
    atLimit[atLimit.length - 1] = 0x0a;
    const signedAt = hmac(SECRET, atLimit.subarray(0, atLimit.length - 1)).toString('base64');
    const at = await verify(signedAt, ['--json', '--secret', SECRET], { stdin: atLimit });
    expect(at.code).toBe(1);
    expect(JSON.parse(at.stdout)).toEqual({
      valid: false,
      reason: expect.stringMatching(/^the payload ends with a newline that was not signed/),
    });
    // One byte more: not checked, and said so, with --json and without.
    const over = Buffer.concat([atLimit, Buffer.from('\n')]);
    const notChecked = `the payload (${16 * MiB + 1} bytes) is over 16 MiB, so it was not checked for common mistakes`;
    const j = await verify(signedAt, ['--json', '--secret', SECRET], { stdin: over });
    expect(j.code).toBe(1);
    expect(JSON.parse(j.stdout)).toEqual({ valid: false, reason: notChecked });
    const human = await verify(signedAt, ['--secret', SECRET], { stdin: over });
    expect(human.code).toBe(1);
    expect(human.stdout).toBe('invalid\n');
    expect(human.stderr).toContain(notChecked);
  });

  it('says invalid for the wrong secret', async () => {
    const r = await verify(GOOD, ['--secret', 'other', '--payload-file', FIXTURE]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('invalid\n');
  });

  describe('diagnoses', () => {
    const diagnose = async (
      sig: string,
      opts: { secret?: string; body?: Buffer | string } = {},
    ) => {
      const r = await verify(sig, ['--secret', opts.secret ?? SECRET], {
        stdin: opts.body ?? BODY,
      });
      expect(r.code).toBe(1);
      expect(r.stdout).toBe('invalid\n');
      return r.stderr;
    };

    it('hex instead of base64, saying that the hex digest matches', async () => {
      const err = await diagnose(hmac(SECRET, BODY).toString('hex'));
      expect(err).toMatch(
        /cause: the signature is hex, but the service sends base64.*as hex it matches/,
      );
      const other = await diagnose(hmac('nope', BODY).toString('hex'));
      expect(other).toMatch(/check: the signature is hex.*does not match/);
    });

    it('the Standard Webhooks v1,<base64> scheme, and whether the base64 part matches', async () => {
      const err = await diagnose(`v1,${GOOD}`);
      expect(err).toMatch(/Standard Webhooks.*different scheme/);
      expect(err).toMatch(/base64 part does match the raw body/);
      const other = await diagnose(`v1,${hmac('x', BODY).toString('base64')} v1,abc=`);
      expect(other).toMatch(/Standard Webhooks/);
      expect(other).toMatch(/does not match the raw body either/);
    });

    it('the secret itself sent as the signature', async () => {
      expect(await diagnose(SECRET)).toMatch(/check: the signature value is the secret itself/);
    });

    it('whitespace around the secret, saying that trimmed it matches', async () => {
      const err = await diagnose(GOOD, { secret: `${SECRET}\n` });
      expect(err).toMatch(
        /secret has leading or trailing whitespace.*trimmed, the signature matches/,
      );
    });

    it('a trailing newline added to the payload, or missing from it', async () => {
      const added = await diagnose(GOOD, { body: Buffer.concat([BODY, Buffer.from('\n')]) });
      expect(added).toMatch(
        /payload ends with a newline that was not signed.*without it the signature matches/,
      );
      const signedWithNl = hmac(SECRET, Buffer.concat([BODY, Buffer.from('\n')])).toString(
        'base64',
      );
      const missing = await diagnose(signedWithNl);
      expect(missing).toMatch(/signed payload ended with a newline that this one lacks/);
    });

    it('a re-serialised JSON body', async () => {
      const pretty = JSON.stringify(JSON.parse(BODY.toString('utf8')), null, 2);
      // The receiver saved a pretty-printed copy of the body: the signature of the raw bytes
      // matches the compact re-serialisation of it.
      const err = await diagnose(GOOD, { body: pretty });
      expect(err).toMatch(/matches this payload re-serialised as compact JSON.*raw body bytes/);
      // A signer that re-encoded the body the service sent with two-space indentation.
      const sigOfPretty = hmac(SECRET, pretty).toString('base64');
      expect(await diagnose(sigOfPretty)).toMatch(/pretty-printed with 2 spaces/);
    });

    it('a pretty-printed copy of `sched events sample > body.json` (which ends with a newline)', async () => {
      // The first-run path: save a sample, sign the file, then look at it through `jq .`.
      const sample = await runSched(['events', 'sample', 'meetingScheduled']);
      expect(sample.stdout.endsWith('}\n')).toBe(true);
      const signed = await runSched(['sig', 'sign', '--secret', SECRET], { stdin: sample.stdout });
      const pretty = JSON.stringify(JSON.parse(sample.stdout), null, 2) + '\n';
      const err = await diagnose(signed.stdout.trim(), { body: pretty });
      expect(err).toMatch(
        /cause: the signature matches this payload re-serialised as compact JSON.*with a trailing newline.*raw body bytes/,
      );
      // Only the newline differs: that is the newline mistake, not a re-serialisation.
      const onlyNewline = await diagnose(signed.stdout.trim(), { body: sample.stdout.trim() });
      expect(onlyNewline).toMatch(/signed payload ended with a newline that this one lacks/);
      expect(onlyNewline).not.toMatch(/re-serialised/);
    });

    it('base64url and a sha256= prefix', async () => {
      const url = GOOD.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      if (url !== GOOD) expect(await diagnose(url)).toMatch(/base64url/);
      expect(await diagnose(`sha256=${GOOD}`)).toMatch(
        /"sha256=" prefix.*without the prefix it matches/,
      );
    });
  });

  it('rejects an empty --signature with exit 2', async () => {
    const r = await verify('  ', ['--secret', 'k'], { stdin: BODY });
    expect(r.code).toBe(2);
  });
});
