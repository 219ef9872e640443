// Placeholder until the Gallery screen lands (webmedia builds it).
export default function GalleryScreen() {
  return <h1 className="text-2xl font-bold">Gallery</h1>;
}
