import { useState } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import { useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { Badge } from '../../ui/Badge.tsx';
import { Button } from '../../ui/Button.tsx';
import { Card } from '../../ui/Card.tsx';
import { RowList } from '../../ui/RowList.tsx';
import { labelOf } from '../../lib/choices.ts';
import { PROJECT_TYPES } from './options.ts';
import type { InvitationsForYou_query$key } from './__generated__/InvitationsForYou_query.graphql';
import type { InvitationsForYouAcceptMutation } from './__generated__/InvitationsForYouAcceptMutation.graphql';
import type { InvitationsForYouDeclineMutation } from './__generated__/InvitationsForYouDeclineMutation.graphql';

/** Invitations waiting for the viewer: accepting puts the project in the list below at once. */
export function InvitationsForYou({
  query,
  projectsConnectionId,
}: {
  query: InvitationsForYou_query$key;
  projectsConnectionId: string;
}) {
  const data = useFragment(
    graphql`
      fragment InvitationsForYou_query on Query {
        invitations(first: 10) @connection(key: "InvitationsForYou_invitations") {
          __id
          edges {
            node {
              id
              projectName
              projectType
              role
              invitedByName
            }
          }
        }
      }
    `,
    query,
  );
  const [answering, setAnswering] = useState<string | null>(null);
  const [commitAccept] = useMutationWithToasts<InvitationsForYouAcceptMutation>(
    graphql`
    mutation InvitationsForYouAcceptMutation($id: ID!, $projects: [ID!]!) {
      acceptInvitation(id: $id) {
        __typename
        ... on MutationAcceptInvitationSuccess {
          data @prependNode(connections: $projects, edgeTypeName: "QueryProjectsConnectionEdge") {
            id
            name
            ...ProjectCard_project
          }
        }
        ... on Error {
          message
        }
      }
    }
  `,
    {
      outcome: (r) => r.acceptInvitation,
      success: (r) => ({ title: 'Invitation Accepted', description: `You joined ${r.acceptInvitation.data?.name}.` }),
      failure: 'Failed to accept the invitation. Please try again.',
    },
  );
  const [commitDecline] = useMutationWithToasts<InvitationsForYouDeclineMutation>(
    graphql`
    mutation InvitationsForYouDeclineMutation($id: ID!, $invitations: [ID!]!) {
      declineInvitation(id: $id) {
        __typename
        ... on MutationDeclineInvitationSuccess {
          data {
            id @deleteEdge(connections: $invitations)
          }
        }
        ... on Error {
          message
        }
      }
    }
  `,
    {
      outcome: (r) => r.declineInvitation,
      success: { title: 'Invitation Declined', description: 'The project owner has been told.' },
      failure: 'Failed to decline the invitation. Please try again.',
    },
  );
  const connectionId = data.invitations.__id;

  function accept(id: string) {
    setAnswering(id);
    commitAccept({
      variables: { id, projects: [projectsConnectionId] },
      updater: (store, answer) => {
        if (!answer?.acceptInvitation.data) return;
        const invitations = store.get(connectionId);
        if (invitations) {
          const edges = invitations.getLinkedRecords('edges') ?? [];
          invitations.setLinkedRecords(
            edges.filter((edge) => edge?.getLinkedRecord('node')?.getDataID() !== id),
            'edges',
          );
        }
      },
      onSettled: () => setAnswering(null),
    });
  }

  function decline(id: string) {
    setAnswering(id);
    commitDecline({ variables: { id, invitations: [connectionId] }, onSettled: () => setAnswering(null) });
  }

  const answers = [
    { verb: 'Accept', variant: 'primary', answer: accept },
    { verb: 'Decline', variant: 'outline', answer: decline },
  ] as const;
  const invitations = data.invitations.edges.map((edge) => edge.node);
  if (invitations.length === 0) return null;
  return (
    <Card className="p-5">
      <section aria-labelledby="invitations-for-you">
        <h2 id="invitations-for-you" className="text-lg font-semibold text-slate-900 dark:text-slate-100">
          Invitations for you
        </h2>
        <RowList
          items={invitations}
          rowClassName="flex flex-col gap-3 py-3 sm:flex-row sm:items-center"
          testId="invitation-for-you"
        >
          {(invitation) => (
            <>
              <div className="min-w-0 flex-1 [overflow-wrap:anywhere]">
                <p className="text-sm font-medium text-slate-900 dark:text-slate-100">
                  {invitation.projectName} <Badge>{labelOf(PROJECT_TYPES, invitation.projectType)}</Badge>
                </p>
                <p className="mt-0.5 text-sm text-slate-600 dark:text-slate-400">
                  {invitation.invitedByName} invited you as {invitation.role === 'owner' ? 'an owner' : 'a crew member'}
                  .
                </p>
              </div>
              <div className="flex gap-2">
                {answers.map(({ verb, variant, answer }) => (
                  <Button
                    key={verb}
                    size="sm"
                    variant={variant}
                    onClick={() => answer(invitation.id)}
                    disabled={answering === invitation.id}
                    aria-label={`${verb} invitation to ${invitation.projectName}`}
                  >
                    {verb}
                  </Button>
                ))}
              </div>
            </>
          )}
        </RowList>
      </section>
    </Card>
  );
}
