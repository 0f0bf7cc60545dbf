import { useState } from "react";
import type { PendingWorkView } from "@authsim/sdk/emulator";
import { control } from "../api.ts";
import { ErrorBox, formatTime, useAction, useInterval, useLoad } from "../ui.tsx";

/**
 * The emulated clock, always in view: its time (polled), what waits for it, advance by a step or any amount, freeze and
 * unfreeze.
 */
const steps = [
  ["+1 min", 60_000],
  ["+1 hour", 3_600_000],
  ["+1 day", 86_400_000],
] as const;

/** "2 emails to render wait for 2026-01-01 13:05:00Z": what waits for the clock, by instant (docs/emulator.md, "Timed work"). */
function PendingWork({ items }: { items: PendingWorkView["items"] }) {
  if (items.length === 0) return null;
  return (
    <span className="muted" data-testid="pending-work">
      {items
        .map(
          (w) =>
            `${w.count} ${w.what}${w.count === 1 ? "" : "s"} wait${w.count === 1 ? "s" : ""} for ${formatTime(w.due_at_millis)}`,
        )
        .join("; ")}{" "}
      (emulator time)
    </span>
  );
}

export function ClockBar() {
  const clock = useLoad(() => control.call("work"), "clock");
  const action = useAction();
  const [minutes, setMinutes] = useState("");
  useInterval(clock.reload, 1_000);
  const advance = (millis: number) =>
    action.run(() => control.call("advanceClock", { body: { millis } })).then(clock.reload);
  const now = clock.data;
  return (
    <div className="clock" aria-label="Clock">
      <span className="muted">Provider time</span>
      <output data-testid="clock-now" data-millis={now?.now_millis}>
        {now ? formatTime(now.now_millis) : "…"}
      </output>
      {now?.frozen && <span className="badge">frozen</span>}
      {now && <PendingWork items={now.items} />}
      {steps.map(([label, millis]) => (
        <button key={label} type="button" className="small" disabled={action.busy} onClick={() => void advance(millis)}>
          {label}
        </button>
      ))}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const n = Number(minutes);
          if (Number.isFinite(n) && n > 0) void advance(Math.round(n * 60_000)).then(() => setMinutes(""));
        }}
      >
        <input
          aria-label="Advance by minutes"
          placeholder="minutes"
          size={7}
          value={minutes}
          onChange={(e) => setMinutes(e.target.value)}
        />
        <button type="submit" className="small">
          Advance
        </button>
      </form>
      <button
        type="button"
        className="small"
        onClick={() =>
          void action
            .run(() => (now?.frozen ? control.call("unfreezeClock") : control.call("freezeClock", { body: {} })))
            .then(clock.reload)
        }
      >
        {now?.frozen ? "Unfreeze" : "Freeze"}
      </button>
      <ErrorBox error={action.error ?? clock.error} />
    </div>
  );
}
