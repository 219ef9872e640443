import type { Services, Viewer } from '../context.ts';
import { recordAudit } from '../auth/audit.ts';
import type { ZipEntry } from '../files/archive.ts';
import { objectKeysOf } from '../files/bulk.ts';
import { projectMemberWhere, taskVisibleWhere } from '../access/rules.ts';
import { type Origin, nameOf, nameSelect } from './rules.ts';

// A person's own data as one ZIP (the Privacy Policy's right of access): everything of theirs, and
// of others only their names.

function json(value: unknown) {
  // BigInt sizes as numbers of bytes, as the REST answers give them.
  return Buffer.from(`${JSON.stringify(value, (_key, v) => (typeof v === 'bigint' ? Number(v) : v), 2)}\n`, 'utf8');
}

/** "Scouting/Barn" for each of the person's folders, from the folder tree. */
async function folderPaths(db: Services['db'], userId: string) {
  const folders = await db.folder.findMany({
    where: { ownerId: userId },
    select: { id: true, name: true, parentId: true },
  });
  const byId = new Map(folders.map((f) => [f.id, f]));
  const paths = new Map<string, string>();
  const pathOf = (id: string, seen = new Set<string>()): string => {
    const known = paths.get(id);
    if (known !== undefined) return known;
    const folder = byId.get(id);
    if (!folder || seen.has(id)) return '';
    seen.add(id);
    const parent = folder.parentId ? pathOf(folder.parentId, seen) : '';
    const path = parent ? `${parent}/${folder.name}` : folder.name;
    paths.set(id, path);
    return path;
  };
  for (const f of folders) pathOf(f.id);
  return paths;
}

const README = `Your Scoutbase data
===================

files/     Your files as they are now, in your folders.
versions/  Every earlier version of a file: versions/<folder>/<file>/v<N>-<name>.
data/      Your records as JSON: profile and settings, galleries (with their photos and shares),
           tasks you created or were given, comments and picks you made, your projects (with their
           members' names and the invitations you sent), notifications, activity, AI assistant
           conversations, review links you created, your signed-in sessions and the security
           events of your account.

Other people appear by name only. Review links and sessions are listed without their secrets.
`;

/**
 * What the person's export holds: their files' bytes (and every earlier version), then their
 * records as JSON. The bytes are read from the store only as the ZIP is written (zipResponse).
 */
export async function accountExport(deps: Pick<Services, 'db'>, viewer: Viewer): Promise<ZipEntry[]> {
  const { db } = deps;
  const userId = viewer.id;
  const [user, folders, files, versions] = await Promise.all([
    db.user.findUniqueOrThrow({
      where: { id: userId },
      select: {
        id: true,
        email: true,
        emailVerified: true,
        displayName: true,
        firstName: true,
        lastName: true,
        profileImageUrl: true,
        createdAt: true,
        updatedAt: true,
        isAdmin: true,
        quotaBytes: true,
        twoFactorEnabledAt: true,
        settings: true,
        accounts: { select: { provider: true, type: true } },
        importConnections: { select: { provider: true, accountName: true, createdAt: true } },
      },
    }),
    folderPaths(db, userId),
    db.file.findMany({ where: { ownerId: userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    db.fileVersion.findMany({ where: { file: { ownerId: userId } }, orderBy: [{ fileId: 'asc' }, { version: 'asc' }] }),
  ]);
  // A few thousand at a time: one statement takes at most 32,767 parameters.
  const paths = [...new Set([...files.map((f) => f.objectPath), ...versions.map((v) => v.objectPath)])];
  const keys = new Map<string, string>();
  for (let i = 0; i < paths.length; i += 5000) {
    for (const [path, key] of await objectKeysOf(db, paths.slice(i, i + 5000))) keys.set(path, key);
  }

  const entries: ZipEntry[] = [{ name: 'README.txt', content: Buffer.from(README, 'utf8') }];
  const versionsOf = new Map<string, typeof versions>();
  for (const v of versions) {
    const list = versionsOf.get(v.fileId);
    if (list) list.push(v);
    else versionsOf.set(v.fileId, [v]);
  }
  const fileRecords = [];
  for (const file of files) {
    const folder = file.folderId ? (folders.get(file.folderId) ?? '') : '';
    const inFolder = folder ? `${folder}/${file.name}` : file.name;
    const key = keys.get(file.objectPath);
    if (key) entries.push({ name: `files/${inFolder}`, objectKey: key });
    const own = versionsOf.get(file.id) ?? [];
    const current = own.at(-1)?.version ?? 1;
    for (const v of own) {
      const versionKey = keys.get(v.objectPath);
      if (v.version < current && versionKey) {
        entries.push({ name: `versions/${inFolder}/v${v.version}-${file.name}`, objectKey: versionKey });
      }
    }
    const { sortName: _sortName, objectUrl: _objectUrl, ...record } = file;
    fileRecords.push({
      ...record,
      folder: folder || null,
      versions: own.map(({ objectPath: _path, createdById: _by, ...v }) => ({
        ...v,
        isCurrent: v.version === current,
      })),
    });
  }

  const [
    galleries,
    tasks,
    comments,
    picks,
    projects,
    invitations,
    notifications,
    activity,
    conversations,
    reviewLinks,
    sessions,
    audit,
  ] = await Promise.all([
    db.gallery.findMany({
      where: { ownerId: userId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: {
        items: {
          orderBy: [{ position: 'asc' }, { id: 'asc' }],
          select: { fileId: true, position: true, createdAt: true, file: { select: { name: true } } },
        },
        shares: {
          select: {
            projectId: true,
            permission: true,
            status: true,
            createdAt: true,
            project: { select: { name: true } },
          },
        },
      },
    }),
    db.task.findMany({
      where: taskVisibleWhere(userId),
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: {
        creator: { select: { id: true, ...nameSelect } },
        assignee: { select: { id: true, ...nameSelect } },
        gallery: { select: { name: true } },
      },
    }),
    db.photoComment.findMany({
      where: { authorId: userId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: {
        id: true,
        galleryId: true,
        fileId: true,
        body: true,
        createdAt: true,
        gallery: { select: { name: true } },
        file: { select: { name: true } },
      },
    }),
    db.photoPick.findMany({
      where: { userId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      select: {
        galleryId: true,
        fileId: true,
        pick: true,
        createdAt: true,
        updatedAt: true,
        gallery: { select: { name: true } },
        file: { select: { name: true } },
      },
    }),
    db.project.findMany({
      where: { OR: [{ ownerId: userId }, projectMemberWhere(userId)] },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: {
        owner: { select: { id: true, ...nameSelect } },
        members: {
          orderBy: [{ createdAt: 'asc' }, { userId: 'asc' }],
          select: { userId: true, role: true, createdAt: true, user: { select: nameSelect } },
        },
      },
    }),
    db.invitation.findMany({
      where: { invitedById: userId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { project: { select: { name: true } } },
    }),
    db.notification.findMany({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    db.activity.findMany({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    db.aiConversation.findMany({
      where: { userId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { messages: { orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] } },
    }),
    db.reviewLink.findMany({
      where: { createdById: userId },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
      include: { gallery: { select: { name: true } } },
    }),
    db.session.findMany({ where: { userId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] }),
    db.auditEvent.findMany({
      where: { OR: [{ subjectId: userId }, { actorId: userId }] },
      orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    }),
  ]);

  const { settings, accounts, importConnections, twoFactorEnabledAt, ...profile } = user;
  const data: [string, unknown][] = [
    [
      'profile',
      {
        ...profile,
        twoFactorEnabled: twoFactorEnabledAt !== null,
        signInProviders: accounts.map((a) => a.provider),
        importConnections,
      },
    ],
    ['settings', settings ? { ...settings, userId: undefined } : null],
    ['files', fileRecords],
    ['folders', [...folders].map(([id, path]) => ({ id, path })).sort((a, b) => a.path.localeCompare(b.path))],
    [
      'galleries',
      galleries.map(({ sortName: _sortName, items, shares, ...g }) => ({
        ...g,
        items: items.map(({ file, ...item }) => ({ ...item, fileName: file.name })),
        shares: shares.map(({ project, ...share }) => ({ ...share, projectName: project.name })),
      })),
    ],
    [
      'tasks',
      tasks.map(({ creator, assignee, gallery, ...t }) => ({
        ...t,
        createdByYou: t.creatorId === userId,
        assignedToYou: t.assigneeId === userId,
        creator: { id: creator.id, name: nameOf(creator) },
        assignee: assignee ? { id: assignee.id, name: nameOf(assignee) } : null,
        galleryName: gallery?.name ?? null,
      })),
    ],
    ['comments', comments.map(({ gallery, file, ...c }) => ({ ...c, galleryName: gallery.name, fileName: file.name }))],
    ['picks', picks.map(({ gallery, file, ...p }) => ({ ...p, galleryName: gallery.name, fileName: file.name }))],
    [
      'projects',
      projects.map(({ owner, members, ...p }) => ({
        ...p,
        owner: { id: owner.id, name: nameOf(owner) },
        yourRole: members.find((m) => m.userId === userId)?.role ?? null,
        members: members.map(({ user: member, ...m }) => ({ ...m, name: nameOf(member) })),
      })),
    ],
    ['invitations-sent', invitations.map(({ project, ...i }) => ({ ...i, projectName: project.name }))],
    ['notifications', notifications],
    ['activity', activity],
    ['ai-conversations', conversations],
    [
      'review-links',
      reviewLinks.map(({ tokenHash: _token, passwordHash, gallery, ...link }) => ({
        ...link,
        hasPassword: passwordHash !== null,
        galleryName: gallery.name,
      })),
    ],
    [
      'sessions',
      sessions.map((s) => ({
        id: s.id,
        current: s.id === viewer.sessionId,
        createdAt: s.createdAt,
        lastSeenAt: s.lastSeenAt,
        expiresAt: s.expiresAt,
        userAgent: s.userAgent,
        ipAddress: s.ipAddress,
      })),
    ],
    [
      'security-events',
      // An administrator's action names the administrator by role, not by address.
      audit.map((e) => ({
        id: e.id,
        action: e.action,
        byYou: e.actorId === userId,
        createdAt: e.createdAt,
        ipAddress: e.actorId === userId ? e.ipAddress : null,
        userAgent: e.actorId === userId ? e.userAgent : null,
        metadata: e.metadata,
      })),
    ],
  ];
  for (const [name, value] of data) entries.push({ name: `data/${name}.json`, content: json(value) });
  return entries;
}

/** The export's download name: "scoutbase-data-2026-12-07.zip". */
export function exportFileName(now = new Date()) {
  return `scoutbase-data-${now.toISOString().slice(0, 10)}.zip`;
}

export async function recordExport(deps: Pick<Services, 'db'>, viewer: Viewer, origin: Origin, entries: ZipEntry[]) {
  await recordAudit(deps.db, {
    action: 'account_exported',
    actor: { id: viewer.id, email: viewer.email },
    ...origin,
    metadata: { entries: entries.length },
  });
}
