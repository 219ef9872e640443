/**
 * An e-mail address as the app compares it: one Unicode form (NFC), no surrounding spaces, lower
 * case. Two spellings of one mailbox (NEWHIRE@x, newhire@x) are one address for invitations,
 * sign-up and sign-in alike.
 */
export function normalizeEmail(address: string): string {
  return address.normalize('NFC').trim().toLowerCase();
}

export function sameEmail(a: string, b: string): boolean {
  return normalizeEmail(a) === normalizeEmail(b);
}
