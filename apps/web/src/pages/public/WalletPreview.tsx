export default function WalletPreview() {
  return <h1>WalletPreview</h1>;
}
