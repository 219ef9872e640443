import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  knownPushPermission,
  notifySystem,
  pushProblem,
  requestPushPermission,
  shouldShowSystemNotification,
} from './push.ts';

describe('when a new notification becomes a system notification', () => {
  it('only with the switch on, the permission granted and the tab not in focus', () => {
    const cases: [boolean, NotificationPermission | 'unsupported', boolean, boolean][] = [
      [true, 'granted', false, true],
      [true, 'granted', true, false],
      [false, 'granted', false, false],
      [true, 'denied', false, false],
      [true, 'default', false, false],
      [true, 'unsupported', false, false],
    ];
    for (const [enabled, permission, tabFocused, shown] of cases) {
      expect(
        shouldShowSystemNotification({ enabled, permission, tabFocused }),
        `${enabled} ${permission} ${tabFocused}`,
      ).toBe(shown);
    }
  });
});

class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static requestPermission = vi.fn(async () => FakeNotification.permission);
  static shown: FakeNotification[] = [];
  onclick: (() => void) | null = null;
  closed = false;
  constructor(
    readonly title: string,
    readonly options: NotificationOptions,
  ) {
    FakeNotification.shown.push(this);
  }
  close() {
    this.closed = true;
  }
}

function browser({ permission, focused }: { permission: NotificationPermission; focused: boolean }) {
  FakeNotification.permission = permission;
  FakeNotification.shown = [];
  vi.stubGlobal('Notification', FakeNotification);
  vi.spyOn(document, 'hasFocus').mockReturnValue(focused);
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const arrived = { id: 'n1', title: 'New task assigned', message: 'Ana assigned you "Scout".', link: '/tasks?task=1' };

describe('notifySystem', () => {
  it('shows the title and message while the tab is in the background, and opens the link on click', () => {
    browser({ permission: 'granted', focused: false });
    const open = vi.fn();
    vi.spyOn(window, 'focus').mockImplementation(() => {});
    expect(notifySystem(arrived, true, open)).toBe(true);
    const [shown] = FakeNotification.shown;
    expect(shown).toMatchObject({
      title: 'New task assigned',
      options: { body: 'Ana assigned you "Scout".', tag: 'n1' },
    });
    shown?.onclick?.();
    expect(open).toHaveBeenCalledWith('/tasks?task=1');
    expect(shown?.closed).toBe(true);
  });

  it('shows nothing while the tab is in focus, with the switch off, or without permission', () => {
    browser({ permission: 'granted', focused: true });
    expect(notifySystem(arrived, true, vi.fn())).toBe(false);
    browser({ permission: 'granted', focused: false });
    expect(notifySystem(arrived, false, vi.fn())).toBe(false);
    browser({ permission: 'denied', focused: false });
    expect(notifySystem(arrived, true, vi.fn())).toBe(false);
    expect(FakeNotification.shown).toHaveLength(0);
  });
});

describe('asking for permission', () => {
  it('asks only while the browser has not decided, and explains a refusal', async () => {
    browser({ permission: 'default', focused: false });
    FakeNotification.requestPermission.mockResolvedValueOnce('denied');
    expect(await requestPushPermission()).toBe('denied');
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
    // The server renders the next settings page with the answer (its note), as the browser will.
    expect(document.cookie).toContain('scoutbase-push=denied');

    browser({ permission: 'granted', focused: false });
    expect(await requestPushPermission()).toBe('granted');
    expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);

    expect(pushProblem('denied')).toMatch(/blocks notifications/);
    expect(pushProblem('granted')).toBeNull();
  });
});

describe('the permission a cookie says', () => {
  it('is one the browser can have, or none', () => {
    for (const permission of ['default', 'granted', 'denied', 'unsupported']) {
      expect(knownPushPermission(permission)).toBe(permission);
    }
    for (const junk of ['', 'Granted', 'granted; x=1', null, undefined]) expect(knownPushPermission(junk)).toBeNull();
  });
});
