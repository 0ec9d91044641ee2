// PLACEHOLDER interface — implemented in full by the core-commands work (issue 3):
// conf store, 0600/0700, corrupt-file reporting, SCHED_CONFIG_DIR.
export interface Profile {
  baseUrl?: string;
  apiKey?: string;
}

export interface ConfigStore {
  /** Absolute path of the config file. */
  readonly path: string;
  getProfile(name: string): Profile | undefined;
  setProfile(name: string, profile: Profile): void;
  /** Removes the stored key of a profile; returns false when there was none. */
  deleteKey(name: string): boolean;
  listProfiles(): Record<string, Profile>;
}

export const DEFAULT_BASE_URL = 'https://secure.simplymeet.me/api';

export async function openConfig(_env: Record<string, string | undefined>): Promise<ConfigStore> {
  throw new Error('config store not implemented yet');
}
