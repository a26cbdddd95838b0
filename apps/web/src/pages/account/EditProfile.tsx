export default function EditProfile() {
  return <h1>EditProfile</h1>;
}
