export default function History() {
  return <h1>History</h1>;
}
