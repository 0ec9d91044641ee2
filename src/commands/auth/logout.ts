// sched auth logout — removes the stored key or key command of the profile (its base URL stays;
// the secret a key command reads stays in its store).
import type { Context } from '../../context.js';
import { quote } from '../../text/quote.js';
import { checkProfileKnown } from '../../config/sources.js';

export async function run(ctx: Context): Promise<void> {
  const profile = ctx.globals.profile;
  const store = await ctx.config();
  const profiles = store.listProfiles();
  checkProfileKnown(profile, ctx.globals.profileSource, Object.keys(profiles));
  const keyCommand = Object.hasOwn(profiles, profile) ? profiles[profile]?.keyCommand : undefined;
  const removed = await store.deleteKey(profile);
  ctx.io.err(
    !removed
      ? `No API key is stored for profile ${quote(profile)}; nothing to remove`
      : keyCommand
        ? `${ctx.io.colorErr.green('✓')} Removed the key command of profile ${quote(profile)} (\`${keyCommand}\`) from ${store.path}; the secret it read is still in its store`
        : `${ctx.io.colorErr.green('✓')} Removed the API key of profile ${quote(profile)} from ${store.path}`,
  );
  if (ctx.env.SCHED_API_KEY) {
    ctx.io.err('note: SCHED_API_KEY is still set in the environment; unset it to log out fully');
  }
  const { printsData, show } = await import('../../output/render.js');
  if (printsData(ctx.globals))
    await show(ctx.io, ctx.globals, { records: [{ profile, removed }], one: true });
}
