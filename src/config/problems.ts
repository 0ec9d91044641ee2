// What can be wrong with the config file as read, worded for a person: its shape, JSON syntax
// (without quoting the text, which is an API key more often than not) and read permissions.
import { Failure } from '../errors.js';
import { jsonErrorPlace } from '../text/json-error.js';
import { quote, shellCommand } from '../text/quote.js';
import { describeFsError } from './files.js';

const fs = process.getBuiltinModule('node:fs');

/** Checks what we read; returns the problem, or undefined when the content is usable. */
export function shapeProblem(store: unknown): string | undefined {
  if (!store || typeof store !== 'object' || Array.isArray(store))
    return 'the top level is not a JSON object';
  const profiles = (store as Record<string, unknown>).profiles;
  if (profiles === undefined) return undefined;
  if (!profiles || typeof profiles !== 'object' || Array.isArray(profiles))
    return '"profiles" is not an object';
  for (const [name, p] of Object.entries(profiles as Record<string, unknown>)) {
    const problem = profileProblem(name, p);
    if (problem) return problem;
  }
  return undefined;
}

function profileProblem(name: string, p: unknown): string | undefined {
  if (!p || typeof p !== 'object' || Array.isArray(p))
    return `profile ${quote(name)} is not an object`;
  for (const k of ['baseUrl', 'apiKey', 'keyCommand']) {
    const v = (p as Record<string, unknown>)[k];
    if (v !== undefined && typeof v !== 'string')
      return `"${k}" of profile ${quote(name)} is not a string`;
  }
  // Which one would be used is not for us to guess: `auth login` stores one or the other.
  const { apiKey, keyCommand } = p as Record<string, unknown>;
  if (apiKey && keyCommand) return `profile ${quote(name)} has both "apiKey" and "keyCommand"`;
  return undefined;
}

/** Thrown from conf's deserialize when the JSON parses but has the wrong shape. */
export class ShapeError extends Error {}

export function unreadable(file: string, e: unknown, hint: string): Failure {
  if (e instanceof ShapeError) {
    return new Failure(`the config file ${file} has unexpected content: ${e.message}`, { hint });
  }
  const err = e as NodeJS.ErrnoException;
  if (err?.code === 'EACCES' || err?.code === 'EPERM') {
    return new Failure(`cannot read the config file ${file}: permission denied`, {
      hint: `check its owner and mode (${shellCommand`chmod 600 ${file}`})`,
    });
  }
  const why = err?.name === 'SyntaxError' ? notJson(file) : describeFsError(e);
  return new Failure(`cannot read the config file ${file}: ${why}`, { hint });
}

/**
 * Why the file is not JSON, without V8's message: it quotes the text around the error
 * (`Unexpected token 'K', ..."{"apiKey":KEYzz9-dis"...`), which is an API key more often than
 * not. The place is found by the shared JSON scanner, which never quotes the text.
 */
function notJson(file: string): string {
  try {
    return `it is not valid JSON${jsonErrorPlace(fs.readFileSync(file, 'utf8'))}`;
  } catch {
    // Gone or unreadable meanwhile: say no more than that it is not JSON.
    return 'it is not valid JSON';
  }
}
