// Where sched keeps its files on each platform, like env-paths (without its "-nodejs" suffix):
// the config (profiles) and the cache (Node's compile cache). One rule for both; a leaf module
// (Node's path through process.getBuiltinModule: it is used on every start, before anything).

type Env = Record<string, string | undefined>;

/**
 * `kind`'s directory for sched on `platform`:
 * - macOS: ~/Library/Preferences/sched, ~/Library/Caches/sched
 * - Windows: %APPDATA%\sched\Config, %LOCALAPPDATA%\sched\Cache (else under the profile)
 * - others: $XDG_CONFIG_HOME/sched, $XDG_CACHE_HOME/sched, else ~/.config/sched, ~/.cache/sched;
 *   an XDG variable that is not an absolute path is invalid and ignored (the XDG spec).
 */
export function schedDir(
  kind: 'config' | 'cache',
  env: Env,
  platform: NodeJS.Platform,
  home: string,
): string {
  const nodePath = process.getBuiltinModule('node:path');
  const path = platform === 'win32' ? nodePath.win32 : nodePath.posix;
  if (platform === 'darwin') {
    return path.join(home, 'Library', kind === 'config' ? 'Preferences' : 'Caches', 'sched');
  }
  if (platform === 'win32') {
    const [base, local, leaf] =
      kind === 'config' ? [env.APPDATA, 'Roaming', 'Config'] : [env.LOCALAPPDATA, 'Local', 'Cache'];
    return path.join(base || path.join(home, 'AppData', local), 'sched', leaf);
  }
  const xdg = kind === 'config' ? env.XDG_CONFIG_HOME : env.XDG_CACHE_HOME;
  const base = xdg && path.isAbsolute(xdg) ? xdg : path.join(home, `.${kind}`);
  return path.join(base, 'sched');
}
