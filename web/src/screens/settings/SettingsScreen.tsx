export default function SettingsScreen() {
  return <h1 className="text-2xl font-bold">Account Settings</h1>;
}
