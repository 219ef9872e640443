import { Suspense, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  fetchQuery,
  graphql,
  type PreloadedQuery,
  useMutation,
  usePreloadedQuery,
  useRelayEnvironment,
  useSubscription,
} from 'react-relay/hooks';
import { useNavigate } from 'react-router-dom';
import type { GraphQLSubscriptionConfig } from 'relay-runtime';
import { formatBadgeCount, formatNotificationTime } from '../lib/format.ts';
import { isUnauthorizedError } from '../lib/unauthorized.ts';
import { onLiveReconnect } from '../relay/live.ts';
import { notifySystem } from '../lib/push.ts';
import { BellIcon } from '../ui/icons.tsx';
import { toast } from '../ui/toast.tsx';
import { QuietBoundary } from './ScreenBoundary.tsx';
import type { NotificationBellSlotAddedSubscription } from './__generated__/NotificationBellSlotAddedSubscription.graphql';
import type { NotificationBellSlotCountSubscription } from './__generated__/NotificationBellSlotCountSubscription.graphql';
import type { NotificationBellSlotMarkAllMutation } from './__generated__/NotificationBellSlotMarkAllMutation.graphql';
import type { NotificationBellSlotMarkMutation } from './__generated__/NotificationBellSlotMarkMutation.graphql';
import type { NotificationBellSlotQuery } from './__generated__/NotificationBellSlotQuery.graphql';
import { readableNotificationText } from './notificationText.ts';
import { useNow } from '../lib/now.ts';

const bellQuery = graphql`
  query NotificationBellSlotQuery @preloadable {
    viewer {
      id
      settings {
        pushNotifications
      }
    }
    unreadNotificationCount
    notifications(first: 20) @connection(key: "NotificationBell_notifications") {
      __id
      edges {
        node {
          id
          title
          message
          isRead
          createdAt
          link
        }
      }
    }
  }
`;

const bellButtonClass =
  'relative rounded-md p-2 text-slate-600 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-slate-300 dark:hover:bg-slate-800';

function Badge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <span
      data-testid="notification-badge"
      className="absolute -top-0.5 -right-0.5 flex h-5 min-w-5 items-center justify-center rounded-full bg-red-600 px-1 text-[10px] font-bold text-white"
    >
      {formatBadgeCount(count)}
    </span>
  );
}

function Bell({ reference }: { reference: PreloadedQuery<NotificationBellSlotQuery> }) {
  const now = useNow();
  const environment = useRelayEnvironment();
  const navigate = useNavigate();
  const data = usePreloadedQuery<NotificationBellSlotQuery>(bellQuery, reference);
  const unread = data.unreadNotificationCount;
  const edges = data.notifications.edges;
  const [refreshing, setRefreshing] = useState(false);
  const [isOpen, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = useId();
  // Read when a notification arrives, without re-subscribing when the setting changes.
  const pushEnabled = useRef(true);
  pushEnabled.current = data.viewer.settings?.pushNotifications ?? true;
  const navigateRef = useRef(navigate);
  navigateRef.current = navigate;

  // A plain disclosure (not a Headless UI popover) keeps the shell's JavaScript small: Escape
  // closes it and returns focus to the bell; a click or focus outside closes it.
  useEffect(() => {
    if (!isOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpen(false);
      buttonRef.current?.focus();
    };
    const onOutside = (event: Event) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('mousedown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('mousedown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [isOpen]);
  const close = () => setOpen(false);

  function refresh() {
    setRefreshing(true);
    fetchQuery<NotificationBellSlotQuery>(environment, bellQuery, {}, { fetchPolicy: 'network-only' }).subscribe({
      complete: () => setRefreshing(false),
      error: () => setRefreshing(false),
    });
  }

  // Back from a server restart or a network drop: notifications may have arrived meanwhile. (The
  // count subscription sends the current count when it resubscribes; the list is read again here.)
  useEffect(
    () =>
      onLiveReconnect(() => {
        fetchQuery<NotificationBellSlotQuery>(environment, bellQuery, {}, { fetchPolicy: 'network-only' }).subscribe(
          {},
        );
      }),
    [environment],
  );

  // Live: the unread count as it changes, and the list when a notification arrives.
  useSubscription<NotificationBellSlotCountSubscription>(
    useMemo<GraphQLSubscriptionConfig<NotificationBellSlotCountSubscription>>(
      () => ({
        subscription: graphql`
          subscription NotificationBellSlotCountSubscription {
            unreadNotificationCount
          }
        `,
        variables: {},
        updater: (store, payload) => {
          if (payload) store.getRoot().setValue(payload.unreadNotificationCount, 'unreadNotificationCount');
        },
      }),
      [],
    ),
  );
  useSubscription<NotificationBellSlotAddedSubscription>(
    useMemo<GraphQLSubscriptionConfig<NotificationBellSlotAddedSubscription>>(
      () => ({
        subscription: graphql`
          subscription NotificationBellSlotAddedSubscription {
            notificationAdded {
              notificationId
              unreadCount
              notification {
                id
                title
                message
                link
              }
            }
          }
        `,
        variables: {},
        onNext: (response) => {
          const arrived = response?.notificationAdded.notification;
          if (arrived) notifySystem(arrived, pushEnabled.current, (link) => navigateRef.current(link));
          fetchQuery<NotificationBellSlotQuery>(environment, bellQuery, {}, { fetchPolicy: 'network-only' }).subscribe(
            {},
          );
        },
      }),
      [environment],
    ),
  );

  const [commitMark] = useMutation<NotificationBellSlotMarkMutation>(graphql`
    mutation NotificationBellSlotMarkMutation($id: ID!) {
      markNotificationRead(id: $id) {
        ... on MutationMarkNotificationReadSuccess {
          data {
            id
            isRead
          }
        }
      }
    }
  `);
  const [commitMarkAll] = useMutation<NotificationBellSlotMarkAllMutation>(graphql`
    mutation NotificationBellSlotMarkAllMutation {
      markAllNotificationsRead {
        __typename
      }
    }
  `);

  function open(notification: { id: string; isRead: boolean; link: string | null | undefined }, close: () => void) {
    if (!notification.isRead) {
      commitMark({
        variables: { id: notification.id },
        optimisticUpdater(store) {
          store.get(notification.id)?.setValue(true, 'isRead');
          const root = store.getRoot();
          root.setValue(
            Math.max(0, ((root.getValue('unreadNotificationCount') as number) ?? 1) - 1),
            'unreadNotificationCount',
          );
        },
        // Then the server's count (a local decrement could count twice with the live update).
        onCompleted: refresh,
      });
    }
    if (notification.link?.startsWith('/')) {
      close();
      navigate(notification.link);
    }
  }

  function clearAll() {
    const markAll = (store: Parameters<NonNullable<Parameters<typeof commitMarkAll>[0]['updater']>>[0]) => {
      for (const edge of edges) store.get(edge.node.id)?.setValue(true, 'isRead');
      store.getRoot().setValue(0, 'unreadNotificationCount');
    };
    commitMarkAll({
      variables: {},
      optimisticUpdater: markAll,
      updater: markAll,
      onCompleted(response) {
        if (response.markAllNotificationsRead.__typename === 'MutationMarkAllNotificationsReadSuccess') {
          toast({ title: 'Notifications cleared' });
        }
      },
      onError(error) {
        if (!isUnauthorizedError(error))
          toast({ title: 'Error', description: 'Failed to clear notifications', variant: 'destructive' });
      },
    });
  }

  return (
    <div className="relative" ref={rootRef}>
      <button
        ref={buttonRef}
        type="button"
        className={bellButtonClass}
        aria-expanded={isOpen}
        aria-controls={panelId}
        onClick={() => {
          if (!isOpen) refresh();
          setOpen(!isOpen);
        }}
      >
        {/* The name comes from the content, so it holds the badge's visible count ('99+') as
            voice control users would say it. */}
        <span className="sr-only">Notifications</span>
        <BellIcon />
        <Badge count={unread} />
        {unread > 0 && <span className="sr-only"> unread</span>}
      </button>
      {isOpen && (
        <section
          id={panelId}
          aria-label="Notifications"
          className="fixed inset-x-2 top-14 z-50 rounded-xl border border-slate-200 bg-white shadow-xl sm:absolute sm:inset-x-auto sm:top-full sm:right-0 sm:mt-2 sm:w-[22rem] dark:border-slate-700 dark:bg-slate-900"
        >
          <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3 dark:border-slate-700">
            <h2 className="text-sm font-semibold text-slate-900 dark:text-slate-100">Notifications</h2>
            {edges.length > 0 && (
              <button
                type="button"
                onClick={clearAll}
                disabled={unread === 0}
                className="text-xs font-medium text-indigo-600 hover:underline disabled:text-slate-400 disabled:no-underline dark:text-indigo-400"
              >
                Clear all
              </button>
            )}
          </div>
          <div className="max-h-96 overflow-y-auto" aria-busy={refreshing}>
            {edges.length === 0 ? (
              <p className="px-4 py-8 text-center text-sm text-slate-500 dark:text-slate-400">No notifications yet</p>
            ) : (
              <ul className="divide-y divide-slate-100 dark:divide-slate-800">
                {edges.map(({ node }) => (
                  <li key={node.id}>
                    <button
                      type="button"
                      onClick={() => open(node, close)}
                      data-read={node.isRead}
                      className={`flex w-full gap-3 px-4 py-3 text-left hover:bg-slate-50 focus:outline-none focus-visible:bg-slate-100 dark:hover:bg-slate-800 ${
                        node.isRead ? '' : 'bg-indigo-50/60 dark:bg-indigo-950/40'
                      }`}
                    >
                      <span
                        aria-hidden="true"
                        className={`mt-1.5 h-2 w-2 shrink-0 rounded-full ${node.isRead ? 'bg-transparent' : 'bg-indigo-600'}`}
                      />
                      <span className="min-w-0 flex-1">
                        <span className="block text-sm font-medium text-slate-900 dark:text-slate-100">
                          {node.title}
                          {!node.isRead && <span className="sr-only"> (unread)</span>}
                        </span>
                        <span className="block text-sm text-slate-600 dark:text-slate-400">
                          {readableNotificationText(node.message)}
                        </span>
                        <span className="mt-1 block text-xs text-slate-500">
                          {formatNotificationTime(node.createdAt, now)}
                        </span>
                      </span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </section>
      )}
    </div>
  );
}

export function NotificationBellSlot({ reference }: { reference: PreloadedQuery<NotificationBellSlotQuery> }) {
  const idle = (
    <span className={bellButtonClass} aria-hidden="true">
      <BellIcon />
    </span>
  );
  return (
    <QuietBoundary fallback={idle}>
      <Suspense fallback={idle}>
        <Bell reference={reference} />
      </Suspense>
    </QuietBoundary>
  );
}
