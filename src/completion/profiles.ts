// PLACEHOLDER until the config store lands.
export async function listProfileNames(
  _env: Record<string, string | undefined>,
): Promise<string[]> {
  return [];
}
