export default function ResetPassword() {
  return <h1>ResetPassword</h1>;
}
