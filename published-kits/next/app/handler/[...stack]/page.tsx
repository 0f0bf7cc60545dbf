import { StackHandler } from "@stackframe/stack";

export default function Handler() {
  return <StackHandler fullPage />;
}
