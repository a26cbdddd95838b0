export default function OtpVerify() {
  return <h1>OtpVerify</h1>;
}
