export default function MedicalLicense() {
  return <h1>MedicalLicense</h1>;
}
