export default function Landing() {
  return <h1>Landing</h1>;
}
