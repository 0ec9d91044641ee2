// The shape of the service's identifiers (meeting types, webhooks, meetings): a UUID. A leaf,
// so that option parsers can check one at start-up without loading a command.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: string): boolean {
  return UUID.test(s);
}
