/** System (browser) notifications for the Push Notifications setting. */

import { PUSH_PERMISSION_COOKIE } from '../../../api/src/users/contract.ts';
import { serverPage } from './serverPage.ts';
import { tellServer, toldServer } from './tellServer.ts';

export type PushPermission = NotificationPermission | 'unsupported';

const PERMISSIONS: readonly string[] = ['default', 'granted', 'denied', 'unsupported'] satisfies PushPermission[];

/** `value` when it is a permission (as a cookie says it), else null. */
export function knownPushPermission(value: string | null | undefined): PushPermission | null {
  return value && PERMISSIONS.includes(value) ? (value as PushPermission) : null;
}

// What the browser told the server when it asked for this page, read before the app tells it anew.
const toldWithPage = typeof document === 'undefined' ? null : knownPushPermission(toldServer(PUSH_PERMISSION_COOKIE));

/**
 * The permission as a page rendered on the server shows it (null: not known there), the same in
 * that render and in the browser's take-over of it: what the browser last told the server.
 */
export function renderedPushPermission(): PushPermission | null {
  const page = serverPage();
  return page ? page.pushPermission : toldWithPage;
}

/** Tells the server the browser's permission, so the pages it renders show it (web/src/server/render.tsx). */
export function tellPushPermission(permission = pushPermission()) {
  tellServer(PUSH_PERMISSION_COOKIE, permission);
}

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
  let answer: PushPermission;
  try {
    answer = await window.Notification.requestPermission();
  } catch {
    answer = window.Notification.permission;
  }
  tellPushPermission(answer);
  return answer;
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
