import { expect } from 'vitest';
import type { AccessCase, AccessHarness } from '../../test/access.ts';

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

function stillTwoMessages(id: () => string) {
  return async (t: AccessHarness) => {
    expect(await t.app.database.prisma.aiMessage.count({ where: { conversationId: id() } })).toBe(2);
  };
}

let conversationId = '';
let analysedFileId = '';

export const accessCases: AccessCase[] = [
  {
    route: 'GET /api/ai/conversations',
    name: "does not list the owner's conversations",
    async arrange(t) {
      await ownerConversation(t);
      return { method: 'GET', path: '/api/ai/conversations' };
    },
    expect: 'empty-list',
  },
  {
    route: 'GET /api/ai/conversations/:id/messages',
    name: "cannot read the owner's conversation",
    async arrange(t) {
      conversationId = await ownerConversation(t);
      return { method: 'GET', path: `/api/ai/conversations/${conversationId}/messages` };
    },
    expect: 'not-found',
  },
  {
    route: 'POST /api/ai/chat',
    name: "cannot write into the owner's conversation",
    async arrange(t) {
      conversationId = await ownerConversation(t);
      return { method: 'POST', path: '/api/ai/chat', body: { message: 'what is overdue?', conversationId } };
    },
    expect: 'not-found',
    unchanged: stillTwoMessages(() => conversationId),
  },
];

accessCases.push({
  route: 'POST /api/ai/analyze-file',
  name: "cannot analyse (or retag) the owner's photo",
  async arrange(t) {
    const file = await t.app.database.prisma.file.create({
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
    analysedFileId = file.id;
    return { method: 'POST', path: '/api/ai/analyze-file', body: { fileId: file.id } };
  },
  expect: 'not-found',
  async unchanged(t) {
    const file = await t.app.database.prisma.file.findUniqueOrThrow({ where: { id: analysedFileId } });
    expect(file.tags).toEqual([]);
    expect(file.metadata).toEqual({});
  },
});
