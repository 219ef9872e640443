// Placeholder until the Photo Galleries screen lands (webmedia builds it).
export default function GalleriesScreen() {
  return <h1 className="text-2xl font-bold">Photo Galleries</h1>;
}
