// An independent cross-check of webhook signatures: base64 HMAC-SHA256 as openssl computes it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * openssl's signature of a file (a path) or of bytes (written to a temp file first);
 * undefined when openssl is not available, so the caller can skip the check.
 */
export function opensslSign(secret: string, fileOrBytes: string | Buffer): string | undefined {
  let file = fileOrBytes;
  if (typeof file !== 'string') {
    file = join(mkdtempSync(join(tmpdir(), 'sched-openssl-')), 'body');
    writeFileSync(file, fileOrBytes);
  }
  try {
    return execFileSync('sh', ['-c', 'openssl dgst -sha256 -hmac "$S" -binary < "$F" | base64'], {
      env: { ...process.env, S: secret, F: file },
    })
      .toString()
      .trim();
  } catch {
    return undefined;
  }
}
