// Profiles for completion, read straight from the config file: loading conf (and its locking
// and permission checks) would cost more than a completion is allowed to take.
// Read-only and forgiving: a missing or unreadable file simply means no names.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { configDir } from '../config/profiles.js';

export interface ProfileSummary {
  name: string;
  /** Shown beside the name; never the key. */
  baseUrl: string | undefined;
}

export async function listProfiles(
  env: Record<string, string | undefined>,
): Promise<ProfileSummary[]> {
  let data: unknown;
  try {
    data = JSON.parse(await readFile(path.join(configDir(env), 'config.json'), 'utf8'));
  } catch {
    return [];
  }
  const profiles = (data as { profiles?: unknown } | null)?.profiles;
  if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles)) return [];
  return Object.entries(profiles as Record<string, unknown>)
    .map(([name, p]) => {
      const url = (p as { baseUrl?: unknown } | null)?.baseUrl;
      return { name, baseUrl: typeof url === 'string' && url !== '' ? url : undefined };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}
