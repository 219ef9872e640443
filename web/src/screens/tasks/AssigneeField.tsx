import { graphql, useFragment } from 'react-relay/hooks';
import { Field } from '../../ui/Field.tsx';
import { Select } from '../../ui/Select.tsx';
import type { AssigneeField_choices$key } from './__generated__/AssigneeField_choices.graphql';

/**
 * "Assigned To" of the create and edit task forms: yourself or your projects' members (the API's
 * rule, api/src/tasks/rules.ts assignableWhere). `current`, someone who has since left, stays
 * listed while they are the assignee, so the form shows who it is.
 */
export function AssigneeField({
  choices: choicesKey,
  id,
  value,
  onChange,
  current,
}: {
  choices: AssigneeField_choices$key;
  id: string;
  value: string;
  onChange: (assigneeId: string) => void;
  current?: { id: string; displayName: string } | null;
}) {
  const choices = useFragment(
    graphql`
      fragment AssigneeField_choices on Query {
        viewer {
          id
        }
        assignableUsers(first: 100) {
          edges {
            node {
              id
              displayName
            }
          }
        }
      }
    `,
    choicesKey,
  );
  const people = choices.assignableUsers.edges.map((e) => e.node);
  if (current && !people.some((p) => p.id === current.id)) people.push(current);
  const options = [
    { value: '', label: 'Unassigned' },
    ...people
      .map((p) => ({ value: p.id, label: p.id === choices.viewer.id ? `${p.displayName} (you)` : p.displayName }))
      .sort((a, b) => a.label.localeCompare(b.label)),
  ];
  return (
    <Field label="Assigned To" htmlFor={id}>
      <Select id={id} value={value} onChange={onChange} options={options} />
    </Field>
  );
}
