import { AuthPage } from "../components/form-parts.tsx";

/** Shown when a page's SDK call does not exist in this SDK version yet (see handler/capabilities.ts). */
export function Unavailable({ title, call }: { title: string; call: string }) {
  return (
    <AuthPage title={title}>
      <p role="alert" className="authsim-error">
        This page is not available: the SDK in use has no {call} yet.
      </p>
    </AuthPage>
  );
}
