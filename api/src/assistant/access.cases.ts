import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';
import { accessCase } from '../../test/access-rows.ts';

/** A conversation of the owner's, made through the chat route as the owner would. */
async function ownerConversation(t: AccessHarness) {
  const response = await t.app.request('/api/ai/chat', {
    method: 'POST',
    cookie: t.owner.cookie,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      message: 'create a task to scout the pier tomorrow',
      context: { currentPage: '/', userRole: 'user' },
    }),
  });
  if (response.status !== 200) throw new Error(`arrange failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { conversation: { id: string } }).conversation.id;
}

async function ownerPhoto(t: AccessHarness) {
  return t.app.database.prisma.file.create({
    data: {
      ownerId: t.owner.id,
      name: 'owner-photo.jpg',
      originalName: 'owner-photo.jpg',
      mimeType: 'image/jpeg',
      objectUrl: '/objects/uploads/00000000-0000-4000-8000-000000000000',
      objectPath: '/objects/uploads/00000000-0000-4000-8000-000000000000',
      isPublic: true,
    },
  });
}

export const accessCases: AccessCase[] = [
  accessCase({
    route: 'GET /api/ai/conversations',
    name: "does not list the owner's conversations",
    given: ownerConversation,
    expect: 'empty-list',
  }),
  accessCase({
    route: 'GET /api/ai/conversations/:id/messages',
    name: "cannot read the owner's conversation",
    given: ownerConversation,
    asks: (conversationId) => `/api/ai/conversations/${conversationId}/messages`,
    expect: 'not-found',
  }),
  accessCase({
    route: 'POST /api/ai/chat',
    name: "cannot write into the owner's conversation",
    given: ownerConversation,
    asks: (conversationId) => ({ body: { message: 'what is overdue?', conversationId } }),
    expect: 'not-found',
    async unchanged(t, conversationId) {
      expect(await t.app.database.prisma.aiMessage.count({ where: { conversationId } })).toBe(2);
    },
  }),
  accessCase({
    route: 'POST /api/ai/analyze-file',
    name: "cannot analyse (or retag) the owner's photo",
    given: ownerPhoto,
    asks: (file) => ({ body: { fileId: file.id } }),
    expect: 'not-found',
    async unchanged(t, { id }) {
      const file = await t.app.database.prisma.file.findUniqueOrThrow({ where: { id } });
      expect(file.tags).toEqual([]);
      expect(file.metadata).toEqual({});
    },
  }),
];
