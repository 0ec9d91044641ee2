// sched profiles ls — every stored profile: name, base URL, whether a key is stored (or a
// command that prints it), and
// which one is current (--profile / SCHED_PROFILE / "default").
import type { Context } from '../../context.js';
import { DEFAULT_BASE_URL } from '../../config/profiles.js';
import type { Column } from '../../output/render.js';
import { invocationOf, loginHint } from '../../text/hints.js';

export interface ProfileRow {
  name: string;
  baseUrl: string;
  hasKey: boolean;
  /** The key is printed by a command the profile stores (never stored itself). */
  keyCommand: boolean;
}

export async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const current = ctx.globals.profile;
  const rows: ProfileRow[] = Object.entries(store.listProfiles())
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, p]) => ({
      name,
      baseUrl: p.baseUrl ?? DEFAULT_BASE_URL,
      hasKey: Boolean(p.apiKey || p.keyCommand),
      keyCommand: Boolean(p.keyCommand),
    }));

  const columns: Column<ProfileRow>[] = [
    { key: 'current', header: ' ', value: (r) => (r.name === current ? '*' : ''), style: 'green' },
    { key: 'name', header: 'NAME', value: (r) => r.name, style: 'bold' },
    { key: 'baseUrl', header: 'BASE URL', value: (r) => r.baseUrl },
    {
      key: 'hasKey',
      header: 'KEY',
      value: (r) => (r.keyCommand ? 'command' : r.hasKey ? 'yes' : 'no'),
    },
  ];
  const { show } = await import('../../output/render.js');
  await show(ctx.io, ctx.globals, { records: rows, columns });
  if (rows.length === 0) {
    ctx.io.err(
      `No profiles yet (config: ${store.path}); run ${loginHint(invocationOf(ctx.globals))}`,
    );
  }
}
