/** System (browser) notifications for the Push Notifications setting. */

export type PushPermission = NotificationPermission | 'unsupported';

export interface PushSituation {
  /** The user's Push Notifications switch. */
  enabled: boolean;
  permission: PushPermission;
  /** The tab is visible and has focus: the bell already shows it, a system notice would repeat it. */
  tabFocused: boolean;
}

export function shouldShowSystemNotification(situation: PushSituation): boolean {
  return situation.enabled && situation.permission === 'granted' && !situation.tabFocused;
}

export function pushPermission(): PushPermission {
  return typeof window !== 'undefined' && 'Notification' in window ? window.Notification.permission : 'unsupported';
}

export function tabFocused(): boolean {
  return document.visibilityState === 'visible' && document.hasFocus();
}

/** Asks the browser (only from a user's gesture, such as turning the switch on). */
export async function requestPushPermission(): Promise<PushPermission> {
  if (pushPermission() === 'unsupported') return 'unsupported';
  if (window.Notification.permission !== 'default') return window.Notification.permission;
  try {
    return await window.Notification.requestPermission();
  } catch {
    return window.Notification.permission;
  }
}

/** What the settings screen says when the browser will not show notifications. */
export function pushProblem(permission: PushPermission): string | null {
  if (permission === 'denied') {
    return 'Your browser blocks notifications from Scoutbase. Allow them in the site settings of your browser to get push notifications.';
  }
  if (permission === 'unsupported') return 'This browser cannot show push notifications.';
  return null;
}

export interface ArrivedNotification {
  id: string;
  title: string;
  message: string;
  link?: string | null;
}

/**
 * Shows one notification as a system notification when the situation calls for it. Clicking it
 * brings the tab forward and opens what it points to. Answers whether one was shown.
 */
export function notifySystem(
  notification: ArrivedNotification,
  enabled: boolean,
  open: (link: string) => void,
): boolean {
  if (!shouldShowSystemNotification({ enabled, permission: pushPermission(), tabFocused: tabFocused() })) return false;
  try {
    // The tag makes a repeat of the same notification (an updated upload notice) replace the old one.
    const shown = new window.Notification(notification.title, { body: notification.message, tag: notification.id });
    shown.onclick = () => {
      window.focus();
      if (notification.link?.startsWith('/')) open(notification.link);
      shown.close();
    };
    return true;
  } catch {
    // Some browsers (Android Chrome) only show notifications through a service worker.
    return false;
  }
}
