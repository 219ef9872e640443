/**
 * A browser and operating system in words, from a User-Agent header, for the list of signed-in
 * devices. Only the common families are told apart; anything else is said to be unknown rather
 * than guessed. The order of the checks matters: Edge and Opera say "Chrome" too, Chrome says
 * "Safari", and iPadOS may say "Macintosh".
 */
export interface DeviceDescription {
  browser: string | null;
  os: string | null;
  /** A phone or tablet (a small screen icon), else a computer. */
  mobile: boolean;
}

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(?:e|A|iOS)?\/(\d+)/, 'Edge'],
  [/\b(?:OPR|Opera)\/(\d+)/, 'Opera'],
  [/\bSamsungBrowser\/(\d+)/, 'Samsung Internet'],
  [/\b(?:Firefox|FxiOS)\/(\d+)/, 'Firefox'],
  [/\b(?:Chrome|HeadlessChrome|CriOS)\/(\d+)/, 'Chrome'],
  [/\bVersion\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//, 'Safari'],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bWindows NT\b/, 'Windows'],
  [/\biPad\b/, 'iPadOS'],
  [/\b(?:iPhone|iPod)\b/, 'iOS'],
  [/\bAndroid\b/, 'Android'],
  [/\bCrOS\b/, 'ChromeOS'],
  [/\bMac OS X\b/, 'macOS'],
  [/\bLinux\b/, 'Linux'],
];

export function describeUserAgent(userAgent: string | null | undefined): DeviceDescription {
  const ua = userAgent ?? '';
  let browser: string | null = null;
  for (const [pattern, name] of BROWSERS) {
    const match = pattern.exec(ua);
    if (match) {
      browser = `${name} ${match[1]}`;
      break;
    }
  }
  const os = SYSTEMS.find(([pattern]) => pattern.test(ua))?.[1] ?? null;
  return { browser, os, mobile: /\bMobile\b|\bAndroid\b|\biPad\b|\biPhone\b/.test(ua) };
}

/** "Firefox 133 on Linux", "Safari 18 on iOS", or "Unknown browser" (with its OS when known). */
export function deviceName(userAgent: string | null | undefined): string {
  const { browser, os } = describeUserAgent(userAgent);
  if (browser && os) return `${browser} on ${os}`;
  if (browser) return browser;
  return os ? `Unknown browser on ${os}` : 'Unknown browser';
}
