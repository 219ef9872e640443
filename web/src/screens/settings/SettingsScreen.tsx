import { type FormEvent, Suspense, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import { graphql, useMutation } from 'react-relay/hooks';
import { useAuth } from '../../auth/auth.tsx';
import { formatFileSize } from '../../lib/format.ts';
import { isUnauthorizedError } from '../../lib/unauthorized.ts';
import { useRouteQuery } from '../../routing/useRouteQuery.ts';
import {
  type PushPermission,
  pushPermission,
  pushProblem,
  renderedPushPermission,
  requestPushPermission,
} from '../../lib/push.ts';
import { setDarkMode } from '../../lib/theme.ts';
import { Avatar } from '../../shell/Avatar.tsx';
import { StorageBar } from '../../shell/StorageUsageSlot.tsx';
import { Button } from '../../ui/Button.tsx';
import { ButtonLink } from '../../ui/ButtonLink.tsx';
import { Card, PageHeader } from '../../ui/Card.tsx';
import { NAME_MAX } from '../../../../api/src/users/contract.ts';
import { Field, Input, lengthHint, TextField } from '../../ui/Field.tsx';
import { SkeletonStack } from '../../ui/Skeleton.tsx';
import { Switch } from '../../ui/Switch.tsx';
import { toast } from '../../ui/toast.tsx';
import type { SettingsScreenProfileMutation } from './__generated__/SettingsScreenProfileMutation.graphql';
import type { SettingsScreenQuery } from './__generated__/SettingsScreenQuery.graphql';
import type { SettingsScreenSettingsMutation } from './__generated__/SettingsScreenSettingsMutation.graphql';

const FAILED = 'Failed to update settings. Please try again.';

function Section({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <Card className="p-6">
      <h2 className="mb-4 text-lg font-semibold text-slate-900 dark:text-slate-100">{title}</h2>
      {children}
    </Card>
  );
}

function SettingsForm() {
  const { data } = useRouteQuery<SettingsScreenQuery>(
    graphql`
      query SettingsScreenQuery @preloadable {
        viewer {
          id
          email
          displayName
          firstName
          lastName
          profileImageUrl
          storage {
            usedBytes
            availableBytes
            percentUsed
          }
          settings {
            emailNotifications
            pushNotifications
            darkMode
            autoSave
          }
        }
      }
    `,
  );
  const viewer = data.viewer;
  const saved = viewer.settings ?? {
    emailNotifications: true,
    pushNotifications: true,
    darkMode: false,
    autoSave: true,
  };
  const { state, setUser } = useAuth();

  const [firstName, setFirstName] = useState(viewer.firstName ?? '');
  const [lastName, setLastName] = useState(viewer.lastName ?? '');
  // Said under First Name: blank is refused here as the API refuses it (api/src/users/rules.ts).
  const [nameError, setNameError] = useState<string | null>(null);
  const [switches, setSwitches] = useState({
    emailNotifications: saved.emailNotifications,
    pushNotifications: saved.pushNotifications,
    darkMode: saved.darkMode,
    autoSave: saved.autoSave,
  });

  // Push notifications need the browser's permission too; asked when the switch is turned on.
  // A page rendered on the server shows it as the browser last told the server, so the note and
  // the switches below it do not move when the app takes over (unless it changed meanwhile).
  const browserPermission = useSyncExternalStore(unchanging, pushPermission, renderedPushPermission);
  const [answered, setAnswered] = useState<PushPermission>();
  const permission = answered ?? browserPermission;
  async function askPermission() {
    setAnswered(await requestPushPermission());
  }

  // Dark Mode previews at once; leaving without saving puts the saved theme back.
  const savedDark = useRef(saved.darkMode);
  savedDark.current = saved.darkMode;
  useEffect(() => () => setDarkMode(savedDark.current), []);

  const [commitProfile, profilePending] = useMutation<SettingsScreenProfileMutation>(graphql`
    mutation SettingsScreenProfileMutation($firstName: String, $lastName: String) {
      updateProfile(firstName: $firstName, lastName: $lastName) {
        __typename
        ... on MutationUpdateProfileSuccess {
          data {
            id
            firstName
            lastName
            displayName
            email
            profileImageUrl
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const [commitSettings, settingsPending] = useMutation<SettingsScreenSettingsMutation>(graphql`
    mutation SettingsScreenSettingsMutation(
      $emailNotifications: Boolean
      $pushNotifications: Boolean
      $darkMode: Boolean
      $autoSave: Boolean
    ) {
      updateSettings(
        emailNotifications: $emailNotifications
        pushNotifications: $pushNotifications
        darkMode: $darkMode
        autoSave: $autoSave
      ) {
        __typename
        ... on MutationUpdateSettingsSuccess {
          data {
            emailNotifications
            pushNotifications
            darkMode
            autoSave
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  const saving = profilePending || settingsPending;

  function failed(error?: unknown, message?: string) {
    if (error && isUnauthorizedError(error)) return;
    toast({ title: 'Error', description: message || FAILED, variant: 'destructive' });
  }

  function saveSettings() {
    commitSettings({
      variables: switches,
      // UserSettings has no id of its own: hang the saved values on the viewer so every reader updates.
      updater(store) {
        const result = store.getRootField('updateSettings')?.getLinkedRecord('data');
        const me = store.get(viewer.id);
        if (result && me) me.setLinkedRecord(result, 'settings');
      },
      onCompleted(response) {
        const result = response.updateSettings;
        if (result.__typename !== 'MutationUpdateSettingsSuccess') {
          failed(undefined, 'message' in result ? result.message : undefined);
          return;
        }
        setDarkMode(result.data?.darkMode ?? switches.darkMode);
        toast({ title: 'Settings Updated', description: 'Your preferences have been saved successfully.' });
      },
      onError: (error) => failed(error),
    });
  }

  function save(event: FormEvent) {
    event.preventDefault();
    const namesChanged = firstName.trim() !== (viewer.firstName ?? '') || lastName.trim() !== (viewer.lastName ?? '');
    if (namesChanged && !firstName.trim()) {
      setNameError('First name is required.');
      return;
    }
    setNameError(null);
    if (!namesChanged) {
      saveSettings();
      return;
    }
    commitProfile({
      variables: { firstName: firstName.trim(), lastName: lastName.trim() },
      onCompleted(response) {
        const result = response.updateProfile;
        if (result.__typename !== 'MutationUpdateProfileSuccess') {
          const message = 'message' in result ? result.message : undefined;
          if (message?.startsWith('First name')) setNameError(message);
          else failed(undefined, message);
          return;
        }
        const user = result.data;
        if (state.status === 'signedIn' && user) {
          setUser({
            ...state.user,
            firstName: user.firstName ?? null,
            lastName: user.lastName ?? null,
            displayName: user.displayName ?? state.user.displayName,
          });
        }
        saveSettings();
      },
      onError: (error) => failed(error),
    });
  }

  function toggle(key: keyof typeof switches, value: boolean) {
    setSwitches((current) => ({ ...current, [key]: value }));
    if (key === 'darkMode') setDarkMode(value);
    if (key === 'pushNotifications' && value) void askPermission();
  }

  const setting = (key: keyof typeof switches, label: string, description: string) => (
    <Switch label={label} description={description} checked={switches[key]} onChange={(v) => toggle(key, v)} />
  );

  const fullName = [firstName.trim(), lastName.trim()].filter(Boolean).join(' ') || viewer.displayName;

  return (
    <form onSubmit={save} className="space-y-6">
      <Section title="Profile Information">
        <div className="mb-6 flex items-center gap-4">
          <Avatar user={{ ...viewer, firstName, lastName }} className="h-16 w-16 text-xl" />
          <div className="min-w-0">
            <p className="truncate text-base font-semibold text-slate-900 dark:text-slate-100">{fullName}</p>
            <p className="truncate text-sm text-slate-600 dark:text-slate-400">{viewer.email}</p>
          </div>
        </div>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
          <TextField
            label="First Name"
            value={firstName}
            onChange={(e) => {
              setFirstName(e.target.value);
              setNameError(null);
            }}
            autoComplete="given-name"
            aria-required
            maxLength={NAME_MAX}
            error={nameError}
            hint={lengthHint(firstName, NAME_MAX)}
          />
          <TextField
            label="Last Name"
            value={lastName}
            onChange={(e) => setLastName(e.target.value)}
            autoComplete="family-name"
            maxLength={NAME_MAX}
            hint={lengthHint(lastName, NAME_MAX)}
          />
          <div className="sm:col-span-2">
            <Field label="Email" htmlFor="settings-email">
              <Input id="settings-email" value={viewer.email ?? ''} disabled readOnly />
            </Field>
          </div>
        </div>
      </Section>

      <Section title="Notification Preferences">
        <div className="divide-y divide-slate-200 dark:divide-slate-800">
          {setting('emailNotifications', 'Email Notifications', 'Receive notifications by e-mail')}
          {setting('pushNotifications', 'Push Notifications', 'Receive notifications in the browser')}
        </div>
        {switches.pushNotifications && permission && (
          <PushPermissionNote permission={permission} onAsk={askPermission} />
        )}
      </Section>

      <Section title="Security">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Your password, two-factor sign-in, and the devices signed in to your account.
          </p>
          <ButtonLink
            to="/settings/security"
            variant="outline"
            size="sm"
            className="shrink-0 self-start sm:self-center"
          >
            Manage security
          </ButtonLink>
        </div>
      </Section>

      <Section title="Appearance">{setting('darkMode', 'Dark Mode', 'Use a dark theme across the app')}</Section>

      <Section title="Storage & Sync">
        {setting('autoSave', 'Auto Save', 'Save changes automatically')}
        {viewer.storage && (
          <div className="mt-4 border-t border-slate-200 pt-4 dark:border-slate-800">
            <p className="text-sm font-medium text-slate-900 dark:text-slate-100">Storage Usage</p>
            <div className="mt-2 flex justify-between text-sm text-slate-600 dark:text-slate-400">
              <span>Used {formatFileSize(viewer.storage.usedBytes)}</span>
              <span>Available {formatFileSize(viewer.storage.availableBytes)}</span>
            </div>
            <div className="mt-2">
              <StorageBar percent={viewer.storage.percentUsed} />
            </div>
          </div>
        )}
      </Section>

      <Section title="Your data">
        <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Download a copy of everything that is yours, or delete your account.
          </p>
          <ButtonLink to="/settings/account" variant="outline" size="sm" className="shrink-0 self-start sm:self-center">
            Your data
          </ButtonLink>
        </div>
      </Section>

      <div className="flex justify-end">
        <Button type="submit" disabled={saving}>
          {saving ? 'Saving...' : 'Save Settings'}
        </Button>
      </div>
    </form>
  );
}

/** The browser's permission changes only when asked (askPermission), so nothing subscribes to it. */
const unchanging = () => () => {};

/** Why push notifications will not appear in this browser, and the way to allow them when there is one. */
function PushPermissionNote({ permission, onAsk }: { permission: PushPermission; onAsk: () => void }) {
  const problem = pushProblem(permission);
  if (problem) {
    return (
      <p
        role="status"
        className="mt-2 rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-200"
      >
        {problem}
      </p>
    );
  }
  if (permission !== 'default') return null;
  return (
    <div className="mt-2 flex flex-wrap items-center justify-between gap-2 text-sm text-slate-600 dark:text-slate-400">
      <span>Allow notifications in this browser to see them while Scoutbase is in the background.</span>
      <Button type="button" variant="outline" size="sm" onClick={onAsk}>
        Allow notifications
      </Button>
    </div>
  );
}

export default function SettingsScreen() {
  return (
    <div className="mx-auto max-w-3xl">
      <PageHeader title="Account Settings" subtitle="Manage your profile and preferences" />
      <Suspense fallback={<SkeletonStack rows={['h-64', 'h-40', 'h-24', 'h-40']} />}>
        <SettingsForm />
      </Suspense>
    </div>
  );
}
