// Placeholder until the File Manager screen lands (webmedia builds it).
export default function FilesScreen() {
  return <h1 className="text-2xl font-bold">File Manager</h1>;
}
