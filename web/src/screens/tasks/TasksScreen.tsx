export default function TasksScreen() {
  return <h1 className="text-2xl font-bold">Task Management</h1>;
}
