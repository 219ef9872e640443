// Dark Mode is a user setting stored on the server; this copy in localStorage only avoids a
// light flash before the settings arrive.
const KEY = 'scoutbase:dark-mode';

export function setDarkMode(dark: boolean) {
  document.documentElement.classList.toggle('dark', dark);
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
  try {
    localStorage.setItem(KEY, dark ? '1' : '0');
  } catch {}
}

export function applyStoredTheme() {
  let stored: string | null = null;
  try {
    stored = localStorage.getItem(KEY);
  } catch {}
  if (stored !== null) setDarkMode(stored === '1');
}
