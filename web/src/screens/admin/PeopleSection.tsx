import { useEffect, useState } from 'react';
import { formatAge, formatFileSize } from '../../lib/format.ts';
import { toastFailure } from '../../lib/http.ts';
import { isUnauthorizedError } from '../../lib/unauthorized.ts';
import { SectionBody } from './SectionBody.tsx';
import { useLoadFailure, whileCurrent } from './useLoadFailure.ts';
import { LoadMore } from '../../ui/LoadMore.tsx';
import { StorageBar } from '../../shell/StorageUsageSlot.tsx';
import { ActionsMenu, ActionsMenuItem } from '../../ui/ActionsMenu.tsx';
import { Badge } from '../../ui/Badge.tsx';
import { Card } from '../../ui/Card.tsx';
import { FormDialog } from '../../ui/Dialog.tsx';
import { ConfirmDialog } from '../../ui/dialogs.ts';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { Field, Input, SearchField } from '../../ui/Field.tsx';
import { UsersIcon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toast.tsx';
import { type AdminUser, failureMessage, fetchUsers, PEOPLE_PAGE, sendPasswordReset, updateUser } from './adminApi.ts';
import { useNow } from '../../lib/now.ts';

type Confirmable = 'disable' | 'enable' | 'reset' | 'grant' | 'revoke';

const CONFIRMS: Record<
  Confirmable,
  { title: string; message: (u: AdminUser) => string; label: string; pending: string; done: string }
> = {
  disable: {
    title: 'Disable this account?',
    message: (u) =>
      `${u.name} (${u.email}) is signed out everywhere at once and cannot sign in until enabled again. Their files, galleries and projects stay.`,
    label: 'Disable',
    pending: 'Disabling...',
    done: 'Account disabled',
  },
  enable: {
    title: 'Enable this account?',
    message: (u) => `${u.name} (${u.email}) can sign in again.`,
    label: 'Enable',
    pending: 'Enabling...',
    done: 'Account enabled',
  },
  reset: {
    title: 'Send a password reset link?',
    message: (u) => `${u.email} gets an e-mail with a link to choose a new password. The link works once.`,
    label: 'Send link',
    pending: 'Sending...',
    done: 'Password reset link sent',
  },
  grant: {
    title: 'Make this person an administrator?',
    message: (u) =>
      `${u.name} can then see everyone's account, disable people, set quotas, read the audit log and change the instance's settings.`,
    label: 'Make administrator',
    pending: 'Saving...',
    done: 'Now an administrator',
  },
  revoke: {
    title: 'Revoke administrator?',
    message: (u) => `${u.name} loses access to this console at once.`,
    label: 'Revoke',
    pending: 'Saving...',
    done: 'No longer an administrator',
  },
};

const CHANGES = {
  disable: { disabled: true },
  enable: { disabled: false },
  grant: { admin: true },
  revoke: { admin: false },
} as const;

const MB = 1024 * 1024;
const GB = 1024 * MB;

/** Everyone with an account, searchable, with what an administrator can do to each. */
export function PeopleSection({ viewerId, onNotAdmin }: { viewerId: string; onNotAdmin: () => void }) {
  const [search, setSearch] = useState('');
  const [query, setQuery] = useState('');
  const [users, setUsers] = useState<AdminUser[] | null>(null);
  const [total, setTotal] = useState(0);
  const [confirm, setConfirm] = useState<{ kind: Confirmable; user: AdminUser } | null>(null);
  const [quotaFor, setQuotaFor] = useState<AdminUser | null>(null);
  const [pending, setPending] = useState(false);

  // The search is sent once typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setQuery(search), 300);
    return () => clearTimeout(timer);
  }, [search]);

  const { failed, setFailed, failedToLoad, loadingMore, readMore } = useLoadFailure(
    onNotAdmin,
    'Could not load the people.',
  );

  useEffect(() => {
    setFailed(null);
    return whileCurrent(
      fetchUsers(query, 0),
      (page) => {
        setUsers(page.users);
        setTotal(page.total);
      },
      failedToLoad,
    );
  }, [query, failedToLoad, setFailed]);

  const loadMore = () =>
    readMore(async () => {
      const page = await fetchUsers(query, users?.length ?? 0);
      setUsers((shown) => [...(shown ?? []), ...page.users.filter((u) => !shown?.some((s) => s.id === u.id))]);
      setTotal(page.total);
    });

  function replace(updated: AdminUser) {
    setUsers((shown) => shown?.map((u) => (u.id === updated.id ? updated : u)) ?? null);
  }

  async function run(kind: Confirmable, user: AdminUser) {
    setPending(true);
    try {
      if (kind === 'reset') await sendPasswordReset(user.id);
      else replace(await updateUser(user.id, CHANGES[kind]));
      toast({ title: CONFIRMS[kind].done, description: user.email });
      setConfirm(null);
    } catch (error) {
      toastFailure(error, 'Not done');
    } finally {
      setPending(false);
    }
  }

  return (
    <section aria-labelledby="people-heading">
      <div className="mb-4 flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <h2 id="people-heading" className="text-lg font-semibold text-slate-900 dark:text-slate-100">
          People{users ? ` (${total})` : ''}
        </h2>
        <SearchField
          id="admin-people-search"
          label="Search people"
          value={search}
          onChange={setSearch}
          placeholder="Search by name or e-mail"
          className="w-full sm:w-72"
        />
      </div>
      <SectionBody
        failed={failed}
        items={users}
        placeholder={{ rows: Array(3).fill('h-24 w-full'), className: 'space-y-3' }}
        empty={
          <EmptyState
            icon={<UsersIcon className="h-10 w-10" />}
            title="No one found"
            text={query ? `No account matches “${query}”.` : 'There are no accounts yet.'}
          />
        }
      >
        {(users) => (
          <>
            <ul className="space-y-3">
              {users.map((user) => (
                <PersonCard
                  key={user.id}
                  user={user}
                  self={user.id === viewerId}
                  onAction={(kind) => setConfirm({ kind, user })}
                  onQuota={() => setQuotaFor(user)}
                />
              ))}
            </ul>
            <LoadMore
              list={{ hasNext: users.length < total, isLoadingNext: loadingMore, loadNext: loadMore }}
              count={PEOPLE_PAGE}
              label={`Show ${Math.min(PEOPLE_PAGE, total - users.length)} more`}
              className="pt-4"
            />
          </>
        )}
      </SectionBody>
      <ConfirmDialog
        open={confirm !== null}
        onClose={() => setConfirm(null)}
        onConfirm={() => confirm && run(confirm.kind, confirm.user)}
        title={confirm ? CONFIRMS[confirm.kind].title : ''}
        message={confirm ? CONFIRMS[confirm.kind].message(confirm.user) : ''}
        confirmLabel={confirm ? CONFIRMS[confirm.kind].label : ''}
        pendingLabel={confirm ? CONFIRMS[confirm.kind].pending : ''}
        pending={pending}
      />
      {quotaFor && <QuotaDialog user={quotaFor} onClose={() => setQuotaFor(null)} onSaved={replace} />}
    </section>
  );
}

function PersonCard({
  user,
  self,
  onAction,
  onQuota,
}: {
  user: AdminUser;
  self: boolean;
  onAction: (kind: Confirmable) => void;
  onQuota: () => void;
}) {
  const now = useNow();
  const percent = user.quotaBytes > 0 ? (user.usedBytes / user.quotaBytes) * 100 : 100;
  return (
    <li>
      <Card className={`p-4 ${user.disabled ? 'opacity-80' : ''}`}>
        <div className="flex items-start gap-3">
          <div className="min-w-0 flex-1">
            <div className="flex flex-wrap items-center gap-2">
              <h3 className="truncate font-medium text-slate-900 dark:text-slate-100">{user.name}</h3>
              {self && <Badge>You</Badge>}
              {user.isAdmin && <Badge tone="indigo">Admin</Badge>}
              {user.disabled && <Badge tone="red">Disabled</Badge>}
              {user.emailVerified ? <Badge tone="green">Verified</Badge> : <Badge tone="amber">Unverified</Badge>}
              {user.twoFactorEnabled && <Badge tone="green">Two-factor</Badge>}
            </div>
            <p className="truncate text-sm text-slate-600 dark:text-slate-400">{user.email}</p>
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              {user.lastSeenAt ? `Last seen ${formatAge(user.lastSeenAt, now)}` : 'Not signed in anywhere'} · Joined{' '}
              {formatAge(user.createdAt, now)}
            </p>
          </div>
          <ActionsMenu label={`Actions for ${user.email}`} widthClass="w-60">
            {!self && (
              <ActionsMenuItem onClick={() => onAction(user.disabled ? 'enable' : 'disable')} danger={!user.disabled}>
                {user.disabled ? 'Enable account' : 'Disable account'}
              </ActionsMenuItem>
            )}
            <ActionsMenuItem onClick={() => onAction('reset')}>Send password reset link</ActionsMenuItem>
            <ActionsMenuItem onClick={onQuota}>Set storage quota</ActionsMenuItem>
            {!self && (
              <ActionsMenuItem onClick={() => onAction(user.isAdmin ? 'revoke' : 'grant')} danger={user.isAdmin}>
                {user.isAdmin ? 'Revoke administrator' : 'Make administrator'}
              </ActionsMenuItem>
            )}
          </ActionsMenu>
        </div>
        <div className="mt-3 max-w-md">
          <StorageBar percent={percent} />
          <p className="mt-1 text-xs text-slate-600 dark:text-slate-400">
            {formatFileSize(user.usedBytes)} of {formatFileSize(user.quotaBytes)}
            {user.customQuotaBytes === null ? ' (instance default)' : ' (set for this person)'}
          </p>
        </div>
      </Card>
    </li>
  );
}

function QuotaDialog({
  user,
  onClose,
  onSaved,
}: {
  user: AdminUser;
  onClose: () => void;
  onSaved: (user: AdminUser) => void;
}) {
  const start = user.customQuotaBytes ?? user.quotaBytes;
  const startUnit = start >= GB && start % GB === 0 ? 'GB' : 'MB';
  const [useDefault, setUseDefault] = useState(user.customQuotaBytes === null);
  const [amount, setAmount] = useState(String(Number.parseFloat((start / (startUnit === 'GB' ? GB : MB)).toFixed(2))));
  const [unit, setUnit] = useState<'MB' | 'GB'>(startUnit);
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function save() {
    let quotaBytes: number | null = null;
    if (!useDefault) {
      const value = Number(amount.replace(',', '.'));
      if (!amount.trim() || !Number.isFinite(value) || value < 0) {
        setError('Enter a size of 0 or more.');
        return;
      }
      quotaBytes = Math.round(value * (unit === 'GB' ? GB : MB));
    }
    setPending(true);
    setError(null);
    try {
      onSaved(await updateUser(user.id, { quotaBytes }));
      toast({
        title: 'Quota saved',
        description: `${user.email}: ${quotaBytes === null ? 'the instance default' : formatFileSize(quotaBytes)}`,
      });
      onClose();
    } catch (failure) {
      if (!isUnauthorizedError(failure))
        setError(failureMessage(failure, 'Could not save the quota. Please try again.'));
    } finally {
      setPending(false);
    }
  }

  return (
    <FormDialog
      open
      onClose={onClose}
      title="Storage quota"
      description={`How much ${user.name} may keep. They use ${formatFileSize(user.usedBytes)} now.`}
      onSubmit={save}
      submitLabel="Save quota"
      pendingLabel="Saving..."
      pending={pending}
    >
      <label className="flex items-center gap-2 text-sm text-slate-800 dark:text-slate-200">
        <input
          type="checkbox"
          checked={useDefault}
          onChange={(e) => setUseDefault(e.target.checked)}
          className="h-4 w-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-500 dark:border-slate-600 dark:bg-slate-900"
        />
        Use the instance default
      </label>
      <div className="flex gap-2">
        <div className="flex-1">
          <Field label="Quota" htmlFor="admin-quota-amount">
            <Input
              id="admin-quota-amount"
              inputMode="decimal"
              value={amount}
              disabled={useDefault}
              onChange={(e) => setAmount(e.target.value)}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'admin-quota-error' : undefined}
            />
          </Field>
        </div>
        <div className="w-24">
          <Field label="Unit" htmlFor="admin-quota-unit">
            <select
              id="admin-quota-unit"
              value={unit}
              disabled={useDefault}
              onChange={(e) => setUnit(e.target.value as 'MB' | 'GB')}
              className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-indigo-500 focus:outline-none focus:ring-2 focus:ring-indigo-500/30 disabled:cursor-not-allowed disabled:bg-slate-100 disabled:text-slate-500 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:disabled:bg-slate-800"
            >
              <option value="MB">MB</option>
              <option value="GB">GB</option>
            </select>
          </Field>
        </div>
      </div>
      {error && (
        <p id="admin-quota-error" role="alert" className="text-sm text-red-700 dark:text-red-400">
          {error}
        </p>
      )}
    </FormDialog>
  );
}
