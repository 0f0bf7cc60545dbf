import { useState, type ChangeEvent } from "react";
import type { ControlInput } from "@authsim/sdk/emulator";
import { control } from "../api.ts";
import { download, ErrorBox, Section, useAction } from "../ui.tsx";

/** The whole state out and back in: snapshots (exact, opaque) and fixtures (readable, loaded through the API). */
async function readFile(input: HTMLInputElement): Promise<unknown> {
  const file = input.files?.[0];
  if (!file) throw new Error("Choose a file first.");
  try {
    return JSON.parse(await file.text()) as unknown;
  } catch {
    throw new Error(`${file.name} is not JSON.`);
  } finally {
    input.value = "";
  }
}

export function SnapshotsPanel({ onRestored }: { onRestored: () => void }) {
  const action = useAction();
  const done = useAction();
  const [notice, setNotice] = useState<string | null>(null);
  const importFile = (endpoint: "restore" | "loadFixture", what: string) => (e: ChangeEvent<HTMLInputElement>) => {
    const input = e.currentTarget;
    const name = input.files?.[0]?.name ?? "the file";
    setNotice(null);
    void action.run(async () => {
      // Whatever the file holds goes to the emulator, which checks it (and refuses live-looking keys) before any write.
      const body = await readFile(input);
      if (endpoint === "restore") await control.call("restore", { body: body as ControlInput<"restore">["body"] });
      else await control.call("loadFixture", { body: body as ControlInput<"loadFixture">["body"] });
      setNotice(`${what} ${name}.`);
      onRestored();
    });
  };
  const reset = async () => {
    if (!confirm("Reset the emulator to its seed? Everything not in a snapshot is lost.")) return;
    await control.call("reset");
    setNotice("Reset to the seed.");
    onRestored();
  };
  return (
    <>
      <Section title="Snapshot">
        <p className="muted">
          The exact state (store and clock) as JSON: restore it later, share it, or keep it next to a bug report.
        </p>
        <div className="inline">
          <button
            onClick={() => void done.run(async () => download("authsim-snapshot.json", await control.call("snapshot")))}
          >
            Export snapshot
          </button>
          <label className="file">
            Import snapshot{" "}
            <input
              type="file"
              accept="application/json,.json"
              onChange={importFile("restore", "Restored the snapshot")}
            />
          </label>
        </div>
      </Section>
      <Section title="Fixture">
        <p className="muted">
          The state as a readable fixture document (fixtures/README.md): users, teams, permissions, keys, items, vault.
        </p>
        <div className="inline">
          <button
            onClick={() => void done.run(async () => download("authsim-fixture.json", await control.call("fixture")))}
          >
            Export fixture
          </button>
          <label className="file">
            Load fixture{" "}
            <input
              type="file"
              accept="application/json,.json"
              onChange={importFile("loadFixture", "Loaded the fixture")}
            />
          </label>
        </div>
      </Section>
      <Section title="Reset">
        <button className="danger" onClick={() => void action.run(reset)}>
          Reset emulator
        </button>
      </Section>
      <ErrorBox error={action.error ?? done.error} />
      {notice && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
    </>
  );
}
