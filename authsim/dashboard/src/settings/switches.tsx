import { Section } from "../ui.tsx";
import { Check, Choice, type Edit } from "./fields.tsx";

/** Sign-up and the sign-in methods (config `auth.*`), and the switches of teams, users and API keys. */
export function AuthMethods({ edit }: { edit: Edit }) {
  return (
    <Section title="Auth methods">
      <div className="stack">
        <Check
          edit={edit}
          path="auth.allowSignUp"
          label="Sign-up enabled"
          hint="new users may sign up (else SIGN_UP_NOT_ENABLED)"
        />
        <Check
          edit={edit}
          path="auth.password.allowSignIn"
          label="Password"
          hint="email and password sign-in and sign-up"
        />
        <Check edit={edit} path="auth.otp.allowSignIn" label="OTP / magic link" hint="a code or link sent by email" />
        <Check edit={edit} path="auth.passkey.allowSignIn" label="Passkey" />
        <Choice
          edit={edit}
          path="auth.oauth.accountMergeStrategy"
          label="OAuth account merge strategy"
          options={["link_method", "raise_error", "allow_duplicates"]}
        />
      </div>
    </Section>
  );
}

export function TeamsAndKeys({ edit }: { edit: Edit }) {
  return (
    <Section title="Teams, users and API keys">
      <div className="stack">
        <Check
          edit={edit}
          path="teams.allowClientTeamCreation"
          label="Users may create teams"
          hint="POST /teams from a client"
        />
        <Check edit={edit} path="teams.createPersonalTeamOnSignUp" label="Create a personal team on sign-up" />
        <Check edit={edit} path="users.allowClientUserDeletion" label="Users may delete their account" />
        <Check edit={edit} path="apiKeys.enabled.user" label="User API keys" />
        <Check edit={edit} path="apiKeys.enabled.team" label="Team API keys" />
      </div>
    </Section>
  );
}
