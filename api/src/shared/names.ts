// The one rule for what a file or folder may be called, and how a name stored before the rule is
// made safe wherever it leaves the app (a ZIP entry, a download's file name).

/** Characters that would make a path: a folder separator on any computer. */
const SEPARATORS = /[/\\]/;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is refused
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
/**
 * Bidirectional marks, embeddings, overrides and isolates: "photo\u202Egpj.exe" shows as
 * "photoexe.jpg". Nothing a name needs; refused, and removed from names stored before.
 */
const BIDI = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const BIDI_ALL = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Why `name` (already trimmed) cannot name a file or folder, or null when it can. `what` is
 * "File" or "Folder", the start of every message.
 */
export function nameProblem(name: string, what: 'File' | 'Folder'): string | null {
  if (SEPARATORS.test(name)) return `${what} names cannot contain / or \\.`;
  if (name === '.' || name === '..') return `${what} names cannot be "." or "..".`;
  if (CONTROL.test(name)) return `${what} names cannot contain control characters (such as tabs or line breaks).`;
  if (BIDI.test(name))
    return `${what} names cannot contain text-direction characters (U+200E, U+200F, U+202A–U+202E, U+2066–U+2069).`;
  return null;
}

/** Characters some computer refuses in a file name (Windows: \ / : * ? " < > |). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is replaced
const UNSAFE_FOR_DISKS = /[\\/:*?"<>|\u0000-\u001f\u007f-\u009f]/g;

/**
 * One part of a name as it may be written to someone's disk: text-direction characters removed,
 * separators, drive colons and control characters become "_", and an empty, "." or ".." part
 * becomes "_". Any stored name, however old, comes out as a valid file name.
 */
export function safeFileName(name: string): string {
  const clean = name.normalize('NFC').replace(BIDI_ALL, '').replace(UNSAFE_FOR_DISKS, '_').trim();
  return clean === '' || clean === '.' || clean === '..' ? '_' : clean;
}
