// The sandbox actions table (src/sandbox/actions.ts): each row's name and path as the CLI,
// the route and the console spell them, and its body as the library builds it.
import { describe, expect, it } from 'vitest';
import {
  ACTION_VERBS,
  actionName,
  actionPath,
  SANDBOX_ACTIONS,
  type ActionVerb,
} from '../../src/sandbox/actions.js';
import { CONSOLE_JS } from '../../src/sandbox/console-page.js';

describe('the sandbox actions table', () => {
  it('spells a verb of two words with a dash for the CLI and the route', () => {
    expect(actionName('noShow' as ActionVerb)).toBe('no-show');
    expect(actionName('cancel')).toBe('cancel');
  });

  it('puts a link action under /_sandbox and a meeting action under its meeting', () => {
    for (const verb of ACTION_VERBS) {
      const path = actionPath(verb, 'M');
      const name = actionName(verb);
      if (SANDBOX_ACTIONS[verb].on === 'link') expect(path).toBe(`/_sandbox/${name}`);
      else expect(path).toBe(`/_sandbox/meetings/M/${name}`);
    }
    expect(actionPath('cancel')).toBe('/_sandbox/meetings/:uuid/cancel');
  });

  it('builds the body of each library call, a Date given as ISO 8601', () => {
    const at = new Date('2030-01-02T03:04:05Z');
    expect(SANDBOX_ACTIONS.book.body()).toEqual({ at: undefined });
    expect(SANDBOX_ACTIONS.book.body({ name: 'A', at })).toEqual({
      name: 'A',
      at: '2030-01-02T03:04:05.000Z',
    });
    expect(SANDBOX_ACTIONS.cancel.body()).toEqual({ reason: undefined, canceled_by: undefined });
    expect(SANDBOX_ACTIONS.cancel.body({ reason: 'r', by: 'host' })).toEqual({
      reason: 'r',
      canceled_by: 'host',
    });
    expect(SANDBOX_ACTIONS.reschedule.body('2030-01-02T03:04:05Z', { by: 'host' })).toEqual({
      at: '2030-01-02T03:04:05Z',
      reason: undefined,
      rescheduled_by: 'host',
    });
  });
});

describe("the console's action buttons", () => {
  /** The actions the console's script is given: its buttons, in order, and what each says done. */
  function consoleActions(): Array<{ button: { label: string; danger?: boolean }; done: string }> {
    const json = /^ {2}var ACTIONS = (.*);$/m.exec(CONSOLE_JS)?.[1];
    expect(json, 'the console script lists its actions').toBeDefined();
    return JSON.parse(json!) as never;
  }

  it('labels each button, the dangerous one (Cancel) last and marked', () => {
    expect(consoleActions().map((a) => [a.button.label, a.button.danger === true])).toEqual([
      ['Book', false],
      ['Reschedule', false],
      ['Cancel', true],
    ]);
  });

  it('says what was done in the past tense, as `sched sandbox` does ("Cancelled meeting …")', () => {
    expect(consoleActions().map((a) => a.done)).toEqual(['Booked', 'Rescheduled', 'Cancelled']);
  });
});
