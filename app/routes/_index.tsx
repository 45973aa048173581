export default function Index() {
  return <h1 className="text-2xl font-bold">Console</h1>;
}
