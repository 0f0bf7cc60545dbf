// The kit's pages suspend while they load the project and the user (its setup guide adds this boundary).
export default function Loading() {
  return <p>Loading…</p>;
}
