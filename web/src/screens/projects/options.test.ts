import { describe, expect, it } from 'vitest';
import { inviteEmail } from './options.ts';

describe('inviteEmail', () => {
  it('asks for an address when there is none', () => {
    expect(inviteEmail('   ')).toEqual({ error: 'Enter the e-mail address of the person to invite.' });
  });

  it('refuses what cannot be an address', () => {
    for (const text of ['ana', 'ana@', 'ana@example', 'ana lopez@example.com', '@example.com']) {
      expect(inviteEmail(text), text).toEqual({ error: 'Enter a valid e-mail address.' });
    }
  });

  it('sends the address trimmed and in lower case, as the server stores it', () => {
    expect(inviteEmail('  Ana.Lopez@Example.com ')).toEqual({ email: 'ana.lopez@example.com' });
  });
});
