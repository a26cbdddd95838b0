export default function Membership() {
  return <h1>Membership</h1>;
}
